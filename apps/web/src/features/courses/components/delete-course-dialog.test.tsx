import type { CourseBody } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { setSessionToken } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { DeleteCourseDialog } from './delete-course-dialog';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const course: CourseBody = {
  id: '11111111-1111-4111-8111-111111111111',
  courseTitle: 'Fire Safety',
  externalCourseId: 'fire-safety',
  description: null,
  broadcastMessage: null,
  learners: 12,
  views: 30,
  lastActivityAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const deleted = {
  id: course.id,
  deleted: true,
  keepLearnerData: false,
  deleteRelatedReports: false,
  removePipelineReferences: false,
  removed: { courseRuns: 30, variableValues: 0, responses: 0, reportEntries: 0, pipelineNodes: 0 },
};

function renderDialog(onClose = vi.fn(), onDeleted = vi.fn()) {
  renderWithQueryClient(
    <DeleteCourseDialog course={course} organizationId="o1" onClose={onClose} onDeleted={onDeleted} />,
  );
  return { dialog: screen.getByRole('dialog', { name: 'Delete course' }), onClose, onDeleted };
}

beforeEach(() => {
  vi.clearAllMocks();
  setSessionToken('token-1');
});
afterEach(() => {
  setSessionToken(null);
});

describe('DeleteCourseDialog', () => {
  it('offers the choices that exist, all off, and deletes with every flag false by default', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, deleted));
    const { dialog, onClose, onDeleted } = renderDialog();

    const boxes = within(dialog).getAllByRole('checkbox');
    expect(boxes.map((box) => box.getAttribute('name'))).toEqual(['keepLearnerData', 'deleteRelatedReports']);
    for (const label of ['Keep learner data', 'Delete related reports']) {
      expect(within(dialog).getByRole('checkbox', { name: label })).not.toBeChecked();
    }
    // Pipelines cannot be built yet: nothing offers to clean them up.
    expect(within(dialog).queryByText(/pipeline/i)).not.toBeInTheDocument();
    expect(within(dialog).getByText(/30 course runs of 12 learners will be deleted/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete course' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(init?.method).toBe('DELETE');
    expect(url).toBe(
      `/api/courses/${course.id}?keepLearnerData=false&deleteRelatedReports=false&removePipelineReferences=false`,
    );
    expect(onDeleted).toHaveBeenCalledWith(course);
    expect(toast.success).toHaveBeenCalledWith('Course “Fire Safety” deleted');
  });

  it('sends the choices that were ticked', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, deleted));
    const { dialog } = renderDialog();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Keep learner data' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Delete related reports' }));
    // Keeping the data hides the warning about what would be lost.
    expect(within(dialog).queryByText(/will be deleted/)).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete course' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(fetchMock.mock.calls[0]![0]).toBe(
      `/api/courses/${course.id}?keepLearnerData=true&deleteRelatedReports=true&removePipelineReferences=false`,
    );
  });

  it.each([
    [jsonResponse(409, { error: 'Course is busy', code: 'CONFLICT' }), 'Course is busy'],
    [new Response('', { status: 500 }), 'Failed to delete course'],
    [
      jsonResponse(401, { error: 'Not authenticated', code: 'UNAUTHENTICATED' }),
      'No active session. Please login and try again.',
    ],
    [
      jsonResponse(500, { error: 'column "is_deleted" of relation "courses" does not exist', code: 'X' }),
      'Database schema needs update. Please contact your administrator to run the course-deletion.sql script.',
    ],
  ])('shows the spec message when the deletion fails (%#)', async (response, message) => {
    stubFetch(() => response);
    const { dialog, onClose } = renderDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete course' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(toast.error).toHaveBeenCalledWith(message);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('says there is no session without calling the server', async () => {
    setSessionToken(null);
    const fetchMock = stubFetch(() => jsonResponse(200, deleted));
    const { dialog } = renderDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete course' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'No active session. Please login and try again.',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
