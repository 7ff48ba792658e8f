import { describe, expect, it } from 'vitest';

import { fieldErrorsOf, issuePathParts, resolverOf } from './form-errors';

describe('issuePathParts', () => {
  it('reads the schema’s array paths and the server’s dotted ones alike, inside the body', () => {
    expect(issuePathParts(['variables', 0, 'name'])).toEqual(['variables', '0', 'name']);
    expect(issuePathParts('body.variables.0.name')).toEqual(['variables', '0', 'name']);
    expect(issuePathParts('')).toEqual([]);
    expect(issuePathParts([])).toEqual([]);
  });
});

describe('fieldErrorsOf', () => {
  it('puts each message at its field, nested, the first one of a field winning', () => {
    const errors = fieldErrorsOf(
      [
        { path: 'body.name', message: 'Name is required' },
        { path: ['variables', 1, 'title'], message: 'Title is required' },
        { path: 'body.name', message: 'Name is too long' },
        { path: 'body.plan', message: 'Plan limit' },
      ],
      (path) => {
        const parts = issuePathParts(path);
        return parts[0] === 'plan' ? 'root' : parts.join('.');
      },
    );
    expect(errors).toEqual({
      name: { type: 'validation', message: 'Name is required' },
      variables: { 1: { title: { type: 'validation', message: 'Title is required' } } },
      root: { type: 'validation', message: 'Plan limit' },
    });
  });
});

describe('resolverOf', () => {
  it('passes valid values on and holds back invalid ones with their errors', async () => {
    const resolver = resolverOf<{ name: string }>((values) =>
      values.name ? {} : { name: { type: 'validation', message: 'Name is required' } },
    );
    const options = { fields: {}, shouldUseNativeValidation: false };
    await expect(Promise.resolve(resolver({ name: 'Coach' }, undefined, options))).resolves.toEqual({
      values: { name: 'Coach' },
      errors: {},
    });
    await expect(Promise.resolve(resolver({ name: '' }, undefined, options))).resolves.toEqual({
      values: {},
      errors: { name: { type: 'validation', message: 'Name is required' } },
    });
  });
});
