import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiError } from '@platform/errors';
import { Public } from '../http/public.decorator';
import { HealthRegistry } from './health.registry';

@ApiTags('operations')
@Public()
@Controller()
export class HealthController {
  constructor(private readonly registry: HealthRegistry) {}

  @Get('health')
  @ApiOperation({ summary: 'Readiness: 200 when every dependency answers, 503 otherwise' })
  async health() {
    const report = await this.registry.report();
    if (report.status !== 'ok') {
      const down = Object.entries(report.checks).filter(([, c]) => c.status === 'down').map(([n]) => n);
      throw ApiError.unavailable(`Unavailable: ${down.join(', ')} down`, { ...report });
    }
    return report;
  }

  /**
   * Liveness: answers whenever the process serves requests, whatever its dependencies do, so a
   * hung event loop is told from a database outage (which no restart cures).
   */
  @Get('health/live')
  @ApiOperation({ summary: 'Liveness: 200 while the process serves requests; dependencies are not checked' })
  live() {
    return { status: 'ok' };
  }
}
