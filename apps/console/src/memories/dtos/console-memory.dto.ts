import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import {
  MAX_ENTRIES_PER_MEMORY,
  MAX_IMPORT_BYTES,
  MAX_MEMORIES_PER_ACCOUNT,
  MAX_SEGMENT_LENGTH,
  MemoryDto,
  MemoryEntryDto,
  MemoryEntryPageQueryDto,
  MemoryImportQueryDto,
} from '@platform/translation-memory';
import { ModeQueryDto } from '../../account-mode/mode-query.dto';

export class ConsoleMemoryEntriesQueryDto extends IntersectionType(ModeQueryDto, MemoryEntryPageQueryDto) {}

export class ConsoleMemoryImportQueryDto extends IntersectionType(ModeQueryDto, MemoryImportQueryDto) {}

/** What the page shows next to the counts, so a customer sees a limit before reaching it. */
export class MemoryLimitsDto {
  @ApiProperty({ type: 'integer', example: MAX_MEMORIES_PER_ACCOUNT, description: 'Memories a mode holds at most, the default one included' })
  memories_per_mode: number;

  @ApiProperty({ type: 'integer', example: MAX_ENTRIES_PER_MEMORY })
  entries_per_memory: number;

  @ApiProperty({ type: 'integer', example: MAX_IMPORT_BYTES, description: 'Bytes of an import file at most' })
  import_bytes: number;

  @ApiProperty({ type: 'integer', example: MAX_SEGMENT_LENGTH, description: 'Characters of a source or translation at most' })
  segment_length: number;

  static readonly current: MemoryLimitsDto = {
    memories_per_mode: MAX_MEMORIES_PER_ACCOUNT,
    entries_per_memory: MAX_ENTRIES_PER_MEMORY,
    import_bytes: MAX_IMPORT_BYTES,
    segment_length: MAX_SEGMENT_LENGTH,
  };
}

export class ConsoleMemoryListResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [MemoryDto], description: 'The default memory first, then the others oldest first' })
  memories: MemoryDto[];

  @ApiProperty()
  limits: MemoryLimitsDto;
}

export class ConsoleMemoryEntriesResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  memory: MemoryDto;

  @ApiProperty({ type: [MemoryEntryDto], description: 'The page of matching entries, in the order they were first added' })
  entries: MemoryEntryDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' })
  next_cursor: string | null;

  @ApiProperty()
  limits: MemoryLimitsDto;
}
