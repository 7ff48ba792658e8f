import { ACTION_MESSAGES } from '@courselens/contracts';
import { describe, expect, it } from 'vitest';
import {
  addressRestriction,
  DeliveryRefusedError,
  literalHostProblem,
  resolveDeliveryAddress,
  type HostLookup,
} from './address-guard';

describe('addressRestriction', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.20', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['not-an-address', 'reserved'],
  ])('%s is %s', (address, restriction) => {
    expect(addressRestriction(address)).toBe(restriction);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(addressRestriction(address)).toBeNull();
    },
  );
});

const lookupOf =
  (table: Record<string, string[]>): HostLookup =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('resolveDeliveryAddress', () => {
  const lookup = lookupOf({
    'hooks.example.com': ['93.184.216.34'],
    'sneaky.example.com': ['93.184.216.34', '10.0.0.8'],
    'internal.example.com': ['192.168.0.10'],
  });
  const refusal = (host: string) => new DeliveryRefusedError(ACTION_MESSAGES.hostNotAllowed(host));

  it('gives the one checked address of a public host', async () => {
    await expect(
      resolveDeliveryAddress(new URL('https://hooks.example.com/in'), [], lookup),
    ).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('refuses a host when any address it resolves to is restricted', async () => {
    await expect(resolveDeliveryAddress(new URL('https://sneaky.example.com/'), [], lookup)).rejects.toEqual(
      refusal('sneaky.example.com'),
    );
    await expect(resolveDeliveryAddress(new URL('http://internal.example.com/'), [], lookup)).rejects.toEqual(
      refusal('internal.example.com'),
    );
  });

  it.each([
    ['http://127.0.0.1:4010/hook', '127.0.0.1'],
    ['http://[::1]/hook', '::1'],
    ['http://[fc00::1]/', 'fc00::1'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['http://10.1.2.3/', '10.1.2.3'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://localhost:3000/', 'localhost'],
    ['http://api.localhost/', 'api.localhost'],
  ])('refuses %s', async (url, host) => {
    await expect(resolveDeliveryAddress(new URL(url), [], lookup)).rejects.toEqual(refusal(host));
  });

  it('says when a name cannot be found', async () => {
    await expect(resolveDeliveryAddress(new URL('https://nowhere.example/'), [], lookup)).rejects.toEqual(
      new DeliveryRefusedError(ACTION_MESSAGES.hostNotFound('nowhere.example')),
    );
  });

  it('lets WEBHOOK_ALLOWED_HOSTS through, on its port only when it names one', async () => {
    const allowed = [
      { host: '127.0.0.1', port: 4010 },
      { host: 'internal.example.com', port: null },
      { host: '::1', port: null },
    ];
    await expect(resolveDeliveryAddress(new URL('http://127.0.0.1:4010/'), allowed, lookup)).resolves.toEqual(
      {
        address: '127.0.0.1',
        family: 4,
      },
    );
    await expect(resolveDeliveryAddress(new URL('http://127.0.0.1:4011/'), allowed, lookup)).rejects.toEqual(
      refusal('127.0.0.1'),
    );
    await expect(
      resolveDeliveryAddress(new URL('http://INTERNAL.example.com./x'), allowed, lookup),
    ).resolves.toEqual({ address: '192.168.0.10', family: 4 });
    await expect(resolveDeliveryAddress(new URL('http://[::1]:9/'), allowed, lookup)).resolves.toEqual({
      address: '::1',
      family: 6,
    });
  });
});

describe('literalHostProblem', () => {
  it('tells from the URL alone about addresses and localhost names, and leaves other names to the delivery', () => {
    expect(literalHostProblem(new URL('http://10.0.0.1/'), [])).toBe(
      ACTION_MESSAGES.hostNotAllowed('10.0.0.1'),
    );
    expect(literalHostProblem(new URL('http://localhost/'), [])).toBe(
      ACTION_MESSAGES.hostNotAllowed('localhost'),
    );
    expect(literalHostProblem(new URL('http://localhost/'), [{ host: 'localhost', port: null }])).toBeNull();
    expect(literalHostProblem(new URL('https://internal.example.com/'), [])).toBeNull();
    expect(literalHostProblem(new URL('https://93.184.216.34/'), [])).toBeNull();
  });
});
