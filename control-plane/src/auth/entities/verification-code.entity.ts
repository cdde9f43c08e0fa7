import type { UserType } from '@scn/proto';
import { Check, Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

export type CodePurpose = 'register' | 'reset';

/** An e-mailed 6-digit code: stored as a keyed hash, expiring, attempt-limited; one per purpose. */
@Entity({ name: 'verification_codes' })
@Unique('uq_verification_codes_target', ['email', 'userType', 'purpose'])
@Check('ck_verification_codes_purpose', `"purpose" IN ('register', 'reset')`)
export class VerificationCodeEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ name: 'user_type', type: 'varchar', length: 10 })
  userType: UserType;

  @Column({ type: 'varchar', length: 16 })
  purpose: CodePurpose;

  @Column({ name: 'code_hash', type: 'char', length: 64 })
  codeHash: string;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
