import { promoteRequestSchema } from '@scn/proto';
import { createZodDto } from 'nestjs-zod';

export class PromoteDto extends createZodDto(promoteRequestSchema) {}
