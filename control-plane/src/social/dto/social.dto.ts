import { addSocialRewardSchema, recordShareSchema } from '@scn/proto';
import { createZodDto } from 'nestjs-zod';

export class RecordShareDto extends createZodDto(recordShareSchema) {}
export class AddSocialRewardDto extends createZodDto(addSocialRewardSchema) {}
