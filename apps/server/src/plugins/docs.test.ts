import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { registerDocs } from './docs';

async function buildDocsApp() {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerDocs(app);
  app.post(
    '/api/session',
    {
      schema: {
        summary: 'Sign in',
        body: z.object({ email: z.string().email(), password: z.string().min(8) }),
        response: { 200: z.object({ token: z.string() }) },
      },
    },
    async () => ({ token: 't' }),
  );
  await app.ready();
  return app;
}

describe('docs plugin', () => {
  it('serves the OpenAPI document with the routes, their schemas and the guides', async () => {
    const app = await buildDocsApp();
    const response = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{
      openapi: string;
      info: { description: string };
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    }>();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.description).toContain('## Getting started');
    expect(document.info.description).toContain('## Connecting a course');
    expect(document.paths['/api/session']?.post?.requestBody).toBeDefined();
    await app.close();
  });

  it('serves the reference UI at /docs/', async () => {
    const app = await buildDocsApp();
    const response = await app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('swagger-ui');
    await app.close();
  });
});
