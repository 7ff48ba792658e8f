import { describe, expect, it } from 'vitest';
import {
  MAX_KNOWLEDGE_CHARS,
  MAX_PASSAGE_CHARS,
  MAX_QUOTE_CHARS,
  buildKnowledgeIndex,
  chunkDocuments,
  tokenizeText,
} from './knowledge-index';
import { GDPR_PRIMER, SAFETY_HANDBOOK } from './knowledge-cases';

describe('chunkDocuments', () => {
  it('cuts markdown at its headings and keeps the heading as the title', () => {
    const passages = chunkDocuments([SAFETY_HANDBOOK]);
    expect(passages.map((passage) => passage.title)).toContain('Fire evacuation');
    const evacuation = passages.find((passage) => passage.title === 'Fire evacuation');
    expect(evacuation?.text).toMatch(/^When the fire alarm sounds/);
    expect(evacuation?.document).toBe('Workplace Safety Handbook');
  });

  it('finds the headings of plain text: short lines standing alone', () => {
    const titles = chunkDocuments([GDPR_PRIMER]).map((passage) => passage.title);
    expect(titles).toContain('Subject access requests');
    expect(titles).not.toContain(
      'Personal data is any information about an identified or identifiable living person',
    );
  });

  it('handles setext headings, formatting and text before the first heading', () => {
    const passages = chunkDocuments([
      {
        title: 'Notes',
        format: 'markdown',
        text: 'Intro line.\n\nBadges\n======\n\nWear your **badge** at [all times](https://example.com).\n\n- keep it visible',
      },
    ]);
    expect(passages).toEqual([
      { id: 0, document: 'Notes', title: 'Notes', text: 'Intro line.' },
      {
        id: 1,
        document: 'Notes',
        title: 'Badges',
        text: 'Wear your badge at all times.\n\n• keep it visible',
      },
    ]);
  });

  it('bounds passage and knowledge sizes', () => {
    const long = Array.from({ length: 400 }, (_, i) => `Sentence number ${i} talks about ladders.`).join(' ');
    const passages = chunkDocuments([{ title: 'Long', format: 'text', text: `${long}\n\n`.repeat(30) }]);
    expect(Math.max(...passages.map((passage) => passage.text.length))).toBeLessThanOrEqual(
      MAX_PASSAGE_CHARS,
    );
    const total = passages.reduce((sum, passage) => sum + passage.text.length, 0);
    expect(total).toBeLessThanOrEqual(MAX_KNOWLEDGE_CHARS);
  });
});

describe('tokenizeText', () => {
  it('reads a hyphenated word both apart and joined', () => {
    expect(tokenizeText('E-mail the café')).toEqual(['e', 'mail', 'email', 'the', 'cafe']);
  });
});

describe('answer', () => {
  const index = buildKnowledgeIndex([SAFETY_HANDBOOK, GDPR_PRIMER]);

  it('quotes the passage that answers, with its source', () => {
    const answer = index.answer('Who do I tell about a lost laptop with personal data on it?');
    expect(answer.kind).toBe('answer');
    if (answer.kind !== 'answer') return;
    expect(answer.citation).toMatchObject({
      document: 'Data Protection Basics',
      title: 'Reporting a data breach',
    });
    expect(answer.citation.quote.length).toBeLessThanOrEqual(MAX_QUOTE_CHARS);
  });

  it('finds words despite a typo and another form of the word', () => {
    const answer = index.answer('how do I use an extinguiser');
    expect(answer.kind === 'answer' && answer.citation.title).toBe('Fire extinguishers');
  });

  it('says there is no answer when only common words match', () => {
    expect(index.answer('What is the best pizza in Naples?').kind).toBe('none');
    expect(index.answer('the the the').kind).toBe('none');
    expect(index.answer('').kind).toBe('none');
  });

  it('quotes at most the limit from a long passage, around the sentence that matches', () => {
    const filler = Array.from({ length: 60 }, (_, i) => `Filler sentence ${i} about nothing much.`).join(' ');
    const longIndex = buildKnowledgeIndex([
      { title: 'Long', format: 'text', text: `${filler} Ladders must be inspected every month. ${filler}` },
    ]);
    const answer = longIndex.answer('how often are ladders inspected?');
    expect(answer.kind).toBe('answer');
    if (answer.kind !== 'answer') return;
    expect(answer.citation.quote).toContain('Ladders must be inspected every month.');
    expect(answer.citation.quote.length).toBeLessThanOrEqual(MAX_QUOTE_CHARS);
  });
});
