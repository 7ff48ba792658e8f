import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local imitation of the few Stripe API endpoints the Stripe billing
 * provider calls, so its tests run offline against the real SDK: customers,
 * subscriptions (retrieve, update), Checkout and Billing Portal sessions, and
 * the invoice list. Objects live in memory and come back Stripe-shaped, with
 * Stripe's error shape for unknown ids; every request is recorded with its
 * form body decoded, so tests assert on exactly what the provider sent.
 */

/** A form or query value as Stripe's `a[b][0][c]=` encoding nests it. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

export type FakeStripeRequest = {
  method: string;
  /** The path without the query string, e.g. `/v1/subscriptions/sub_fake_1`. */
  path: string;
  query: FormObject;
  body: FormObject;
};

export type FakeCustomer = {
  id: string;
  object: 'customer';
  created: number;
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
};

export type FakePaymentMethod = {
  id: string;
  object: 'payment_method';
  type: 'card';
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
};

export type FakeSubscriptionItem = {
  id: string;
  object: 'subscription_item';
  price: { id: string; object: 'price' };
  quantity: number;
  subscription: string;
  current_period_start: number;
  current_period_end: number;
};

export type FakeSubscription = {
  id: string;
  object: 'subscription';
  created: number;
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  metadata: Record<string, string>;
  /** An id as Stripe stores it; expanded to the payment method when asked. */
  default_payment_method: string | null;
  items: { object: 'list'; data: FakeSubscriptionItem[]; has_more: false; url: string };
};

export type FakeInvoice = {
  id: string;
  object: 'invoice';
  created: number;
  customer: string;
  number: string | null;
  amount_due: number;
  currency: string;
  status: string;
  invoice_pdf: string | null;
  hosted_invoice_url: string | null;
};

export type FakeCheckoutSession = {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open';
  url: string;
  customer: string | null;
  client_reference_id: string | null;
  success_url: string | null;
  cancel_url: string | null;
};

export type FakePortalSession = {
  id: string;
  object: 'billing_portal.session';
  customer: string;
  return_url: string | null;
  url: string;
};

export type FakeStripeState = {
  customers: Map<string, FakeCustomer>;
  paymentMethods: Map<string, FakePaymentMethod>;
  subscriptions: Map<string, FakeSubscription>;
  invoices: Map<string, FakeInvoice>;
  checkoutSessions: Map<string, FakeCheckoutSession>;
  portalSessions: Map<string, FakePortalSession>;
};

export type SeedSubscription = {
  /** An existing customer; a new one is made when absent. */
  customer?: string;
  price: string;
  status?: string;
  cancelAtPeriodEnd?: boolean;
  metadata?: Record<string, string>;
  paymentMethod?: { brand: string; last4: string; expMonth: number; expYear: number } | null;
  /** Unix seconds. */
  currentPeriodStart?: number;
  currentPeriodEnd?: number;
};

export type SeedInvoice = {
  customer: string;
  /** Unix seconds. */
  created: number;
  amountDue: number;
  currency?: string;
  status?: string;
  number?: string | null;
  invoicePdf?: string | null;
  hostedInvoiceUrl?: string | null;
};

export type FakeStripe = {
  /** The origin to give the provider as `apiBase`, e.g. `http://127.0.0.1:53124`. */
  apiBase: string;
  state: FakeStripeState;
  requests: FakeStripeRequest[];
  seedCustomer: (input?: {
    email?: string;
    name?: string;
    metadata?: Record<string, string>;
  }) => FakeCustomer;
  seedSubscription: (input: SeedSubscription) => FakeSubscription;
  seedInvoice: (input: SeedInvoice) => FakeInvoice;
  close: () => Promise<void>;
};

/** A 4xx answer in Stripe's error shape. */
class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: { code?: string; param?: string } = {},
  ) {
    super(message);
  }
}

const now = () => Math.floor(Date.now() / 1000);
const THIRTY_DAYS = 30 * 24 * 60 * 60;

export async function startFakeStripe(): Promise<FakeStripe> {
  const state: FakeStripeState = {
    customers: new Map(),
    paymentMethods: new Map(),
    subscriptions: new Map(),
    invoices: new Map(),
    checkoutSessions: new Map(),
    portalSessions: new Map(),
  };
  const requests: FakeStripeRequest[] = [];
  // Ids count up per fake, so a test can name the objects it expects.
  let sequence = 0;
  const nextId = (prefix: string) => `${prefix}_fake_${++sequence}`;

  function seedCustomer(input: { email?: string; name?: string; metadata?: Record<string, string> } = {}) {
    const customer: FakeCustomer = {
      id: nextId('cus'),
      object: 'customer',
      created: now(),
      email: input.email ?? null,
      name: input.name ?? null,
      metadata: input.metadata ?? {},
    };
    state.customers.set(customer.id, customer);
    return customer;
  }

  function seedSubscription(input: SeedSubscription): FakeSubscription {
    const customer = input.customer ?? seedCustomer().id;
    let paymentMethod: FakePaymentMethod | null = null;
    if (input.paymentMethod) {
      const { brand, last4, expMonth, expYear } = input.paymentMethod;
      paymentMethod = {
        id: nextId('pm'),
        object: 'payment_method',
        type: 'card',
        card: { brand, last4, exp_month: expMonth, exp_year: expYear },
      };
      state.paymentMethods.set(paymentMethod.id, paymentMethod);
    }
    const id = nextId('sub');
    const start = input.currentPeriodStart ?? now();
    const subscription: FakeSubscription = {
      id,
      object: 'subscription',
      created: start,
      customer,
      status: input.status ?? 'active',
      cancel_at_period_end: input.cancelAtPeriodEnd ?? false,
      metadata: input.metadata ?? {},
      default_payment_method: paymentMethod?.id ?? null,
      items: {
        object: 'list',
        data: [newItem(id, input.price, start, input.currentPeriodEnd ?? start + THIRTY_DAYS)],
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
      },
    };
    state.subscriptions.set(id, subscription);
    return subscription;
  }

  function newItem(subscription: string, price: string, start: number, end: number): FakeSubscriptionItem {
    return {
      id: nextId('si'),
      object: 'subscription_item',
      price: { id: price, object: 'price' },
      quantity: 1,
      subscription,
      current_period_start: start,
      current_period_end: end,
    };
  }

  function seedInvoice(input: SeedInvoice): FakeInvoice {
    const invoice: FakeInvoice = {
      id: nextId('in'),
      object: 'invoice',
      created: input.created,
      customer: input.customer,
      number: input.number ?? null,
      amount_due: input.amountDue,
      currency: input.currency ?? 'usd',
      status: input.status ?? 'paid',
      invoice_pdf: input.invoicePdf ?? null,
      hosted_invoice_url: input.hostedInvoiceUrl ?? null,
    };
    state.invoices.set(invoice.id, invoice);
    return invoice;
  }

  function found<T>(map: Map<string, T>, id: string, what: string, param = 'id'): T {
    const object = map.get(id);
    if (!object)
      throw new StripeApiError(404, `No such ${what}: '${id}'`, { code: 'resource_missing', param });
    return object;
  }

  /** The subscription as the API returns it, with `default_payment_method` expanded when asked. */
  function render(subscription: FakeSubscription, expand: FormValue | undefined) {
    const expanded = Array.isArray(expand) && expand.includes('default_payment_method');
    if (!expanded || subscription.default_payment_method === null) return subscription;
    return {
      ...subscription,
      default_payment_method: found(
        state.paymentMethods,
        subscription.default_payment_method,
        'payment_method',
      ),
    };
  }

  function updateSubscription(subscription: FakeSubscription, body: FormObject) {
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
      throw new StripeApiError(
        400,
        'You cannot update a subscription that is `canceled` or `incomplete_expired`.',
      );
    }
    const items = asArray(body.items);
    if (items.length > 0 && subscription.status === 'incomplete') {
      throw new StripeApiError(
        400,
        'An incomplete subscription can only have its metadata and default_source updated.',
      );
    }
    for (const item of items) {
      const price = text(field(item, 'price'));
      const itemId = text(field(item, 'id'));
      const existing = subscription.items.data.find((candidate) => candidate.id === itemId);
      if (itemId && !existing) throw new StripeApiError(400, `No such subscription item: '${itemId}'`);
      if (existing && price) existing.price = { id: price, object: 'price' };
      if (!existing && price) {
        const first = subscription.items.data[0];
        subscription.items.data.push(
          newItem(
            subscription.id,
            price,
            first?.current_period_start ?? now(),
            first?.current_period_end ?? now(),
          ),
        );
      }
    }
    if (body.cancel_at_period_end !== undefined) {
      subscription.cancel_at_period_end = body.cancel_at_period_end === 'true';
    }
    Object.assign(subscription.metadata, asStrings(body.metadata));
  }

  function listInvoices(query: FormObject) {
    const customer = text(query.customer);
    const limit = Number(text(query.limit) || 10);
    // Stripe lists newest first.
    const all = [...state.invoices.values()]
      .filter((invoice) => !customer || invoice.customer === customer)
      .sort((a, b) => b.created - a.created);
    return { object: 'list', data: all.slice(0, limit), has_more: all.length > limit, url: '/v1/invoices' };
  }

  function createCheckoutSession(body: FormObject): FakeCheckoutSession {
    const customer = text(body.customer) || null;
    if (customer) found(state.customers, customer, 'customer', 'customer');
    if (text(body.mode) !== 'subscription' && text(body.mode) !== 'payment') {
      throw new StripeApiError(400, 'Missing required param: mode.', { param: 'mode' });
    }
    const id = nextId('cs');
    const session: FakeCheckoutSession = {
      id,
      object: 'checkout.session',
      mode: text(body.mode),
      status: 'open',
      url: `https://checkout.stripe.test/c/pay/${id}`,
      customer,
      client_reference_id: text(body.client_reference_id) || null,
      success_url: text(body.success_url) || null,
      cancel_url: text(body.cancel_url) || null,
    };
    state.checkoutSessions.set(id, session);
    return session;
  }

  function createPortalSession(body: FormObject): FakePortalSession {
    const customer = found(state.customers, text(body.customer), 'customer', 'customer');
    const id = nextId('bps');
    const session: FakePortalSession = {
      id,
      object: 'billing_portal.session',
      customer: customer.id,
      return_url: text(body.return_url) || null,
      url: `https://billing.stripe.test/p/session/${id}`,
    };
    state.portalSessions.set(id, session);
    return session;
  }

  function route(method: string, path: string, query: FormObject, body: FormObject): unknown {
    const subscriptionId = /^\/v1\/subscriptions\/([^/]+)$/.exec(path)?.[1];
    if (method === 'POST' && path === '/v1/customers') {
      return seedCustomer({
        ...(text(body.email) ? { email: text(body.email) } : {}),
        ...(text(body.name) ? { name: text(body.name) } : {}),
        metadata: asStrings(body.metadata),
      });
    }
    if (method === 'GET' && subscriptionId) {
      return render(found(state.subscriptions, subscriptionId, 'subscription'), query.expand);
    }
    if (method === 'POST' && subscriptionId) {
      const subscription = found(state.subscriptions, subscriptionId, 'subscription');
      updateSubscription(subscription, body);
      return render(subscription, body.expand);
    }
    if (method === 'GET' && path === '/v1/invoices') return listInvoices(query);
    if (method === 'POST' && path === '/v1/checkout/sessions') return createCheckoutSession(body);
    if (method === 'POST' && path === '/v1/billing_portal/sessions') return createPortalSession(body);
    throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      send(res, 500, { error: { type: 'api_error', message: String(error) } });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake-stripe');
    const method = req.method ?? 'GET';
    const body = parseForm(await readBody(req));
    const query = parseForm(url.search.slice(1));
    requests.push({ method, path: url.pathname, query, body });

    if (!/^Bearer (sk|rk)_\S+$/.test(req.headers.authorization ?? '')) {
      send(res, 401, {
        error: { type: 'invalid_request_error', message: 'You did not provide an API key.' },
      });
      return;
    }
    try {
      send(res, 200, route(method, url.pathname, query, body));
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      send(res, error.status, {
        error: { type: 'invalid_request_error', message: error.message, ...error.extra },
      });
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiBase: `http://127.0.0.1:${port}`,
    state,
    requests,
    seedCustomer,
    seedSubscription,
    seedInvoice,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // The SDK keeps connections alive; close them so the server stops at once.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * A Stripe event wrapping an object, as a webhook delivers it (before signing:
 * sign `JSON.stringify(event)` with `Stripe.webhooks.generateTestHeaderString`).
 */
export function fakeEvent(type: string, object: unknown, id = `evt_${type.replaceAll('.', '_')}`) {
  return {
    id,
    object: 'event',
    api_version: null,
    created: now(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

function send(res: ServerResponse, status: number, payload: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Decodes Stripe's form encoding (`items[0][price]=p&metadata[a]=b`) into
 * nested objects; a numeric key makes an array, as the SDK's encoder does.
 */
export function parseForm(encoded: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const segments = key.replace(/\]/g, '').split('[');
    // Arrays are indexed like objects here: `target['0']` on an array is its first element.
    let target = root as Record<string, FormValue>;
    for (const [index, segment] of segments.entries()) {
      const next = segments[index + 1];
      if (next === undefined) target[segment] = value;
      else target = (target[segment] ??= /^\d+$/.test(next) ? [] : {}) as Record<string, FormValue>;
    }
  }
  return root;
}

const text = (value: FormValue | undefined): string => (typeof value === 'string' ? value : '');

const field = (value: FormValue, key: string): FormValue | undefined =>
  typeof value === 'object' && !Array.isArray(value) ? value[key] : undefined;

const asArray = (value: FormValue | undefined): FormValue[] => (Array.isArray(value) ? value : []);

function asStrings(value: FormValue | undefined): Record<string, string> {
  if (typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, text(entry)]));
}
