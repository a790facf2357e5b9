import { prefersMarkdown } from '../../../src/docs/markdown-negotiation';

describe('markdown negotiation of the .md documents', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['text/*', false],
    ['text/markdown', true],
    ['TEXT/MARKDOWN', true],
    ['text/plain, text/markdown', true],
    ['text/plain;q=0.9, text/markdown;q=0.8', false],
    ['text/markdown;q=0.8, text/*;q=0.8', true],
    ['text/markdown;q=0', false],
    ['text/markdown;q=oops', false],
    [['text/plain;q=0.1', 'text/markdown'], true],
  ])('Accept %p → markdown %p', (accept, expected) => {
    expect(prefersMarkdown(accept as string | string[] | undefined)).toBe(expected);
  });
});
