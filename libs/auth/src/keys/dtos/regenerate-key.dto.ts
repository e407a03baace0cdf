import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, ValidateIf } from 'class-validator';
import { PREVIOUS_SECRET_WINDOWS, type PreviousSecretWindow } from '../api-key.service';

const WINDOWS = Object.keys(PREVIOUS_SECRET_WINDOWS) as PreviousSecretWindow[];

/** A regeneration's body, which may be left out: the previous secret then stops at once. */
export class RegenerateKeyDto {
  @ApiPropertyOptional({
    enum: WINDOWS,
    default: 'none',
    description: 'How long the secret being replaced keeps working, so that clients can move to the new one: none (refused at once), 1 hour, 24 hours or 7 days',
  })
  // Absent means none; null is refused rather than read as a window.
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(WINDOWS)
  previous_secret_valid_for?: PreviousSecretWindow;
}
