import type { LearnerChatbotVariablesResponse } from '@courselens/contracts';
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { LearnerChatbotValues } from './learner-chatbot-values';

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};

const LEARNER_ID = '11111111-1111-4111-8111-111111111111';
const CHATBOT_ID = '22222222-2222-4222-8222-222222222222';

const values: LearnerChatbotVariablesResponse = {
  items: [
    {
      chatbotVariableId: 'cv1',
      chatbotId: CHATBOT_ID,
      chatbotName: 'Onboarding coach',
      name: 'team_size',
      title: 'Team size',
      type: 'number',
      value: 1200,
      recordedAt: '2026-01-10T12:00:00.000Z',
      sessionId: 's1',
    },
    {
      chatbotVariableId: 'cv2',
      chatbotId: CHATBOT_ID,
      chatbotName: 'Onboarding coach',
      name: 'start_date',
      title: 'Start date',
      type: 'date',
      value: '2026-03-01',
      recordedAt: '2026-01-12T12:00:00.000Z',
      sessionId: 's1',
    },
  ],
};

function renderSection() {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter>
      <LearnerChatbotValues learnerId={LEARNER_ID} />
    </MemoryRouter>,
    { queryClient },
  );
}

describe('LearnerChatbotValues', () => {
  it('lists what agents captured, latest first, with the agent and the value as a person reads it', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, values));
    renderSection();
    expect(screen.getByRole('heading', { level: 2, name: 'Chatbot values' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Chatbot values of this learner' });
    await within(table).findByText('Team size');
    const [, first, second] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent('Start date');
    expect(first).toHaveTextContent('Mar 1, 2026');
    expect(second).toHaveTextContent('1,200');
    expect(within(second!).getByRole('link', { name: 'Onboarding coach' })).toHaveAttribute(
      'href',
      `/chatbots/edit/${CHATBOT_ID}`,
    );
    expect(fetchMock.mock.calls[0]?.[0]).toBe(`/api/learners/${LEARNER_ID}/chatbot-variables`);
  });

  it('says when no agent has captured anything yet', async () => {
    stubFetch(() => jsonResponse(200, { items: [] }));
    renderSection();
    expect(await screen.findByText('No chatbot values yet')).toBeInTheDocument();
  });
});
