import {
  autoRenewRequestSchema,
  changeBillingTypeRequestSchema,
  createSubscriptionRequestSchema,
} from '@scn/proto';
import { createZodDto } from 'nestjs-zod';

export class CreateSubscriptionDto extends createZodDto(createSubscriptionRequestSchema) {}
export class ChangeBillingTypeDto extends createZodDto(changeBillingTypeRequestSchema) {}
export class AutoRenewDto extends createZodDto(autoRenewRequestSchema) {}
