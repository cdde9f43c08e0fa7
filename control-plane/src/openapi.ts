import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { cleanupOpenApiDoc } from 'nestjs-zod';

/** The REST API's OpenAPI description at /api/docs (UI) and /api/docs-json, from the zod contracts. */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('SCN control plane')
    .setDescription(
      'REST API of the Secure Connection Network. Every failure is `{ success: false, message }`. ' +
        'Authenticate with the session cookie or `Authorization: Bearer <token>`.',
    )
    .setVersion('1')
    .addBearerAuth()
    .addCookieAuth('scn_session')
    .build();
  const document = cleanupOpenApiDoc(SwaggerModule.createDocument(app, config));
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
}
