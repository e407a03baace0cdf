import { ApiProperty, OmitType } from '@nestjs/swagger';
import { CreateKeyDto } from '@platform/auth';
import { ValidateBy } from 'class-validator';

const MAX_NAME_LENGTH = 100;
const NAME_REQUIRED = 'name is required: give the key a name that tells it apart from the others, e.g. "staging server"';

/** One rule with one message: a missing name should not also read as one that is too long. */
const KeyName = () =>
  ValidateBy({
    name: 'keyName',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && /\S/.test(value) && value.length <= MAX_NAME_LENGTH,
      defaultMessage: (args) => (typeof args?.value === 'string' && /\S/.test(args.value) ? `name must be at most ${MAX_NAME_LENGTH} characters` : NAME_REQUIRED),
    },
  });

/**
 * A key created in the console: as the public API's, but always named, because people pick keys
 * by name in the console's lists and usage (the API's unnamed keys are a script's business).
 */
export class ConsoleCreateKeyDto extends OmitType(CreateKeyDto, ['name'] as const) {
  @ApiProperty({ description: 'Label shown in listings; not only spaces', minLength: 1, maxLength: MAX_NAME_LENGTH, example: 'staging server' })
  @KeyName()
  name: string;
}
