import { autoStakeSchema, stakeAmountSchema } from '@scn/proto';
import { createZodDto } from 'nestjs-zod';

export class StakeAmountDto extends createZodDto(stakeAmountSchema) {}
export class AutoStakeDto extends createZodDto(autoStakeSchema) {}
