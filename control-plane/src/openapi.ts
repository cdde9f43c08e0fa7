import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { cleanupOpenApiDoc } from 'nestjs-zod';

type Parameter = { in?: string; name?: string };

/**
 * Path parameters first, in the order the path names them, then the others as declared. Swagger
 * lists a parameter a decorator documents itself (`OwnAccount`'s `uuid`) after the ones it
 * reflects from `@Param`, `@Query` and `@Headers`; this keeps every operation's list in one order.
 */
export function orderPathParameters(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    const order = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    for (const operation of Object.values(item) as Array<{ parameters?: Parameter[] }>) {
      const parameters = operation?.parameters;
      if (!Array.isArray(parameters)) continue;
      const inPath = parameters
        .filter((p) => p.in === 'path')
        .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
      operation.parameters = [...inPath, ...parameters.filter((p) => p.in !== 'path')];
    }
  }
  return document;
}

/**
 * The REST API's OpenAPI description at /api/docs (UI) and /api/docs-json, from the zod contracts.
 * Returns the document (servePortal derives the API's namespaces from its paths).
 */
export function setupOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('SCN control plane')
    .setDescription(
      'REST API of the Secure Connection Network. Every failure is `{ success: false, message, code }` (code: docs/api.md "Error codes"). ' +
        'Authenticate with the session cookie or `Authorization: Bearer <token>`.',
    )
    .setVersion('1')
    .addBearerAuth()
    .addCookieAuth('scn_session')
    .build();
  const document = cleanupOpenApiDoc(
    orderPathParameters(SwaggerModule.createDocument(app, config)),
  );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
  return document;
}
