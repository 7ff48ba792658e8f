import type { GeneratePipelineResponse } from '@courselens/contracts';
import { describe, expect, it } from 'vitest';

import { describeDraft, draftSentence } from './describe-draft';

const SAFETY = '00000000-0000-4000-8000-000000000001';

function draft(nodes: unknown[], edges: unknown[]): GeneratePipelineResponse['draft'] {
  return { name: 'Draft', description: null, nodes, edges };
}

describe('describeDraft', () => {
  it('reads a draft from its source to its actions, new ones marked', () => {
    const reading = describeDraft(
      draft(
        [
          {
            id: 'course-1',
            type: 'course',
            data: { label: 'Workplace Safety Essentials', courseId: SAFETY, events: ['course.failed'] },
          },
          {
            id: 'filter',
            type: 'filter',
            data: {
              label: 'Only if they failed it at least 2 times',
              conditions: [{ field: 'learner.count', eventType: 'course.failed', op: 'gte', value: 2 }],
            },
          },
          {
            id: 'action-1',
            type: 'action',
            data: { label: 'Email the team', proposedAction: { type: 'email' } },
          },
          {
            id: 'action-2',
            type: 'action',
            data: { label: 'Set at_risk to true', proposedAction: { type: 'set_variable' } },
          },
        ],
        [
          { source: 'course-1', target: 'filter' },
          { source: 'filter', target: 'action-1' },
          { source: 'filter', target: 'action-2' },
        ],
      ),
    );
    expect(draftSentence(reading)).toBe(
      'When a learner fails Workplace Safety Essentials → only if they failed it at least 2 times → Email the team (new) → Set at_risk to true (new)',
    );
  });

  it('reads several courses as one trigger, and a branch as its two sides', () => {
    const courses = ['A', 'B', 'C', 'D'].map((title, i) => ({
      id: `course-${i}`,
      type: 'course',
      data: { label: title, courseId: SAFETY, events: ['course.passed', 'course.failed'] },
    }));
    const reading = describeDraft(
      draft(
        [
          ...courses,
          { id: 'branch', type: 'branch', data: { label: 'If passed', conditions: [] } },
          { id: 'yes', type: 'action', data: { label: 'Welcome e-mail', actionId: SAFETY } },
          {
            id: 'no',
            type: 'action',
            data: { proposedAction: { name: 'Notify the team', type: 'notify_team' } },
          },
        ],
        [
          ...courses.map((course) => ({ source: course.id, target: 'branch' })),
          { source: 'branch', target: 'yes', sourceHandle: 'yes' },
          { source: 'branch', target: 'no', sourceHandle: 'no' },
        ],
      ),
    );
    expect(reading.sources).toBe('When a learner passes or fails any of 4 courses');
    expect(reading.branch).toEqual({
      text: 'If passed',
      yes: [{ id: 'yes', kind: 'action', text: 'Welcome e-mail', isNew: false }],
      no: [{ id: 'no', kind: 'action', text: 'Notify the team', isNew: true }],
    });
  });

  it('describes unlabelled steps from their settings, and a schedule by its cron', () => {
    const reading = describeDraft(
      draft(
        [
          { id: 's', type: 'schedule', data: { label: 'Every Monday at 8am', cron: '0 8 * * 1' } },
          { id: 'd', type: 'delay', data: { amount: 2, unit: 'hours' } },
          {
            id: 'f',
            type: 'filter',
            data: {
              conditions: [
                { field: 'learner.variable', variableName: 'department', op: 'eq', value: 'Sales' },
              ],
            },
          },
          { id: 'a', type: 'action', data: { actionId: SAFETY } },
        ],
        [
          { source: 's', target: 'd' },
          { source: 'd', target: 'f' },
          { source: 'f', target: 'a' },
        ],
      ),
    );
    expect(draftSentence(reading)).toBe(
      'Every Monday at 8am (cron 0 8 * * 1) → Wait 2 hours → only if department is Sales → Action',
    );
  });
});
