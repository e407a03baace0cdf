import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/** `last_used_at` is kept to this precision: at most one write per credential and process in this time. */
const PRECISION_MS = 60_000;
/** Credentials whose last write this process remembers; beyond it, it forgets them all and writes again. */
const REMEMBERED = 10_000;

/**
 * Records when a credential (an API key, an access token) was last used, to the minute, in the
 * `last_used_at` column of its table, off the request's path: a request never waits for it, and
 * a failed write costs the record, not the request.
 */
export class LastUseRecorder {
  private readonly logger = new Logger(LastUseRecorder.name);
  private readonly written = new Map<string, number>();
  private readonly update: string;

  /** `table` is a schema-qualified name from code, never from input. */
  constructor(
    private readonly dataSource: DataSource,
    table: string,
  ) {
    this.update = `UPDATE ${table} SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
  }

  note(id: string): void {
    const now = Date.now();
    if ((this.written.get(id) ?? 0) > now - PRECISION_MS) return;
    if (this.written.size >= REMEMBERED) this.written.clear();
    this.written.set(id, now);
    this.dataSource.query(this.update, [id]).catch((error: Error) => this.logger.warn(`last use of ${id} not recorded: ${error.message}`));
  }
}
