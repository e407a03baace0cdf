import { ApiProperty } from '@nestjs/swagger';
import { EU_LANGUAGES } from '@platform/contracts';
import type { Glossary } from '../glossary.entity';
import { GlossaryEntryDto } from './glossary-entry.dto';

export class GlossarySummaryDto {
  @ApiProperty({ format: 'uuid', description: 'Pass as `glossary` in translate and batch requests' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: EU_LANGUAGES })
  source: string;

  @ApiProperty({ enum: EU_LANGUAGES, isArray: true, description: 'Languages at least one entry translates into, sorted' })
  targets: string[];

  @ApiProperty({ type: 'integer' })
  entry_count: number;

  @ApiProperty({ format: 'date-time' })
  created_at: Date;

  @ApiProperty({ format: 'date-time' })
  updated_at: Date;

  static from(glossary: Glossary): GlossarySummaryDto {
    return {
      id: glossary.id,
      name: glossary.name,
      source: glossary.source,
      targets: glossary.targets,
      entry_count: glossary.entryCount,
      created_at: glossary.createdAt,
      updated_at: glossary.updatedAt,
    };
  }
}

export class GlossaryDetailDto extends GlossarySummaryDto {
  @ApiProperty({ type: [GlossaryEntryDto], description: 'In upload order' })
  entries: GlossaryEntryDto[];

  static from(glossary: Glossary): GlossaryDetailDto {
    return { ...GlossarySummaryDto.from(glossary), entries: glossary.entries };
  }
}

export class GlossaryResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  glossary: GlossarySummaryDto;
}

export class GlossaryDetailResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  glossary: GlossaryDetailDto;
}

export class GlossaryListResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [GlossarySummaryDto], description: 'Oldest first; entries are left out' })
  glossaries: GlossarySummaryDto[];
}

export class GlossaryDeletedResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;
}
