import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { TranslationErrorDto } from '@platform/errors';
import { SessionAuth } from '../sessions/session-auth.decorator';
import { CurrentUser, Roles } from '../sessions/session.guard';
import type { SignedIn } from '../sessions/sessions.service';
import { ActivationService } from './activation.service';
import { ActivationRequestDto, ActivationResponseDto } from './dtos/activation.dto';

@ApiTags('account')
@SessionAuth()
@Controller('console/api/activation')
export class ActivationController {
  constructor(private readonly activation: ActivationService) {}

  @Post()
  @HttpCode(200)
  @Roles('owner')
  @ApiOperation({
    summary: 'Request production access (owners only)',
    description: 'The account becomes `pending` until an operator activates it (`admin account:activate`); then live keys can be created. Asking again replaces the details.',
  })
  @ApiOkResponse({ type: ActivationResponseDto })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'invalid_request: a field is invalid, or the account is already activated' })
  async request(@CurrentUser() caller: SignedIn, @Body() body: ActivationRequestDto): Promise<ActivationResponseDto> {
    await this.activation.request(caller.accountId, caller.userId, { company: body.company, vatId: body.vat_id, intendedUse: body.intended_use });
    return { ok: true, account: await this.activation.view(caller.accountId) };
  }
}
