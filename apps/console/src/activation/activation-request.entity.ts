import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An account's request for production access, kept until an operator decides (one per account). */
@Entity({ schema: 'translation', name: 'activation_requests' })
export class ActivationRequest {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text' })
  company: string;

  @Column({ name: 'vat_id', type: 'text' })
  vatId: string;

  @Column({ name: 'intended_use', type: 'text' })
  intendedUse: string;

  @Column({ name: 'requested_by', type: 'uuid', nullable: true })
  requestedBy: string | null;

  @Column({ name: 'requested_at', type: 'timestamptz' })
  requestedAt: Date;
}
