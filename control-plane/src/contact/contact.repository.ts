import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ContactMessageEntity } from './entities/contact-message.entity';

@Injectable()
export class ContactRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  insert(
    message: Pick<
      ContactMessageEntity,
      'email' | 'subject' | 'message' | 'ipAddress' | 'accountUuid'
    >,
  ) {
    return this.dataSource.getRepository(ContactMessageEntity).save({ ...message, mailedAt: null });
  }

  async markMailed(id: string): Promise<void> {
    await this.dataSource
      .getRepository(ContactMessageEntity)
      .update({ id }, { mailedAt: new Date() });
  }
}
