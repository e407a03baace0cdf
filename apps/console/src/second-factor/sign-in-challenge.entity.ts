import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** What a right password answers a user with a second factor: completes sign-in once, with a code, before it expires. */
@Entity({ schema: 'translation', name: 'console_sign_in_challenges' })
export class SignInChallenge {
  @PrimaryColumn({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
