import { ApiProperty } from '@nestjs/swagger';
import { EU_LANGUAGES } from '@platform/contracts';
import type { ReviewCoverage } from '@platform/review';
import { ArrayMaxSize, IsArray, IsIn } from 'class-validator';

const POOL_LANGUAGES_RULE = 'pool_languages must be a list of EU language codes such as ["de", "fr"], or empty';

export class ReviewPoolChangeDto {
  @ApiProperty({
    type: [String],
    enum: EU_LANGUAGES,
    description: "Every language in which the platform's reviewers may review the account's live jobs; an empty list for none",
    example: ['de', 'fr'],
  })
  @IsArray({ message: POOL_LANGUAGES_RULE })
  @ArrayMaxSize(EU_LANGUAGES.length, { message: POOL_LANGUAGES_RULE })
  @IsIn(EU_LANGUAGES, { each: true, message: POOL_LANGUAGES_RULE })
  pool_languages: string[];
}

export class ReviewCoverageDto {
  @ApiProperty({ enum: EU_LANGUAGES, example: 'de' })
  language: string;

  @ApiProperty({ type: 'integer', description: "The account's reviewers of the language who can review now (not revoked, still reviewers)" })
  own_reviewers: number;

  @ApiProperty({ description: "Whether the platform has a reviewer of the language who can review now" })
  pool_available: boolean;

  @ApiProperty({ description: "Whether the account lets the platform's reviewers review the language" })
  pool: boolean;

  static from(coverage: ReviewCoverage): ReviewCoverageDto {
    return { language: coverage.language, own_reviewers: coverage.ownReviewers, pool_available: coverage.poolAvailable, pool: coverage.pool };
  }
}

export class ReviewPoolResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [String], enum: EU_LANGUAGES, description: "The languages in which the platform's reviewers may review the account's live jobs" })
  pool_languages: string[];

  @ApiProperty({ type: [ReviewCoverageDto], description: 'Each EU language: who can review it for the account' })
  coverage: ReviewCoverageDto[];
}
