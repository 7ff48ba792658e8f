import {
  billingCheckoutInput,
  billingCheckoutResultSchema,
  billingInvoicesSchema,
  billingOverviewSchema,
  billingPortalSchema,
  billingStatusSchema,
} from '@courselens/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import type { BillingProvider } from './billing-provider';
import {
  cancelSubscription,
  checkout,
  getBillingOverview,
  getBillingStatus,
  getPortalUrl,
  handleProviderEvent,
  listInvoices,
  parseWebhook,
} from './billing.service';

const tags = ['billing'];

/**
 * Billing: owners read and change the plan; every member reads the status
 * the app's banner shows; Stripe posts its webhooks (verified by signature,
 * so the route itself is public).
 */
export const billingRoutes: FastifyPluginAsyncZod<{
  db: Database;
  provider: BillingProvider;
  publicUrl: string | undefined;
}> = async (app, { db, provider, publicUrl }) => {
  const billingPage = (request: FastifyRequest) =>
    `${publicUrl ?? `${request.protocol}://${request.host}`}/billing`;

  app.get(
    '/api/billing',
    {
      config: { access: 'owner:billing' },
      schema: {
        tags,
        summary: 'The plan, subscription, usage meters with forecasts, and notices',
        response: { 200: billingOverviewSchema },
      },
    },
    async (request) => getBillingOverview(db, requireTenant(request).organizationId, provider),
  );

  app.get(
    '/api/billing/status',
    {
      schema: {
        tags,
        summary: 'The plan and what the app banner says (learner cap grace period, failed payment)',
        response: { 200: billingStatusSchema },
      },
    },
    async (request) => getBillingStatus(db, requireTenant(request).organizationId),
  );

  app.get(
    '/api/billing/invoices',
    {
      config: { access: 'owner:billing' },
      schema: { tags, summary: 'Invoices, newest first', response: { 200: billingInvoicesSchema } },
    },
    async (request) => listInvoices(db, provider, requireTenant(request).organizationId),
  );

  app.post(
    '/api/billing/checkout',
    {
      config: { access: 'owner:billing' },
      schema: {
        tags,
        summary:
          'Subscribe to or change to a plan: changed at once (local provider, existing subscription) or a page to pay on',
        body: billingCheckoutInput,
        response: { 200: billingCheckoutResultSchema },
      },
    },
    async (request) =>
      checkout(db, provider, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        plan: request.body.plan,
        interval: request.body.interval,
        returnUrl: billingPage(request),
      }),
  );

  app.post(
    '/api/billing/cancel',
    {
      config: { access: 'owner:billing' },
      schema: {
        tags,
        summary: 'End the paid plan (local provider: at once; Stripe: at the end of the period)',
        response: { 200: billingOverviewSchema },
      },
    },
    async (request) =>
      cancelSubscription(db, provider, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
      }),
  );

  app.post(
    '/api/billing/portal',
    {
      config: { access: 'owner:billing' },
      schema: {
        tags,
        summary: 'A Stripe Customer Portal session (payment method, invoices)',
        response: { 200: billingPortalSchema },
      },
    },
    async (request) =>
      getPortalUrl(db, provider, requireTenant(request).organizationId, billingPage(request)),
  );

  // The signature covers the exact bytes Stripe sent: this route reads its body as text.
  await app.register(async (webhooks) => {
    webhooks.removeContentTypeParser('application/json');
    webhooks.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      done(null, body);
    });
    webhooks.post(
      '/api/billing/webhooks/stripe',
      {
        config: { access: 'public' },
        bodyLimit: 512 * 1024,
        schema: {
          tags,
          summary: 'Stripe webhooks (subscriptions, invoices), verified by the Stripe-Signature header',
          response: { 200: z.object({ received: z.literal(true), outcome: z.string() }) },
        },
      },
      async (request) => {
        const event = parseWebhook(
          provider,
          typeof request.body === 'string' ? request.body : '',
          request.headers['stripe-signature'] as string | undefined,
        );
        const outcome = await handleProviderEvent(db, event);
        return { received: true as const, outcome };
      },
    );
  });
};
