import { CHATBOT_MESSAGES, MAX_KNOWLEDGE_FILE_BYTES, type KnowledgeFormat } from '@courselens/contracts';
import { useMutation } from '@tanstack/react-query';

import { ApiError, buildApiUrl } from '@/lib/api-client';
import { getSessionToken } from '@/lib/auth';
import type { OrganizationIdInput } from '@/lib/query-keys';

/** What the server reads out of an uploaded file: a document ready for the agent's `documents`. */
export type ExtractedKnowledge = { title: string; format: KnowledgeFormat; text: string };

export const KNOWLEDGE_FILE_ACCEPT = '.md,.markdown,.txt,.pdf,text/markdown,text/plain,application/pdf';

const CONTENT_TYPES: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  pdf: 'application/pdf',
};

/** The Content-Type the server expects for a file, by its extension; null for a file it cannot read. */
export function knowledgeContentType(fileName: string): string | null {
  const extension = /\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return CONTENT_TYPES[extension] ?? null;
}

/**
 * The reason a file is refused before it is sent (the server says the same
 * for a file that gets through), or null when it may go.
 */
export function knowledgeFileProblem(file: Pick<File, 'name' | 'size'>): string | null {
  if (knowledgeContentType(file.name) === null) return CHATBOT_MESSAGES.unsupportedFile(file.name);
  if (file.size > MAX_KNOWLEDGE_FILE_BYTES) return CHATBOT_MESSAGES.fileTooLarge(file.name);
  return null;
}

function errorField(payload: unknown, key: 'error' | 'code'): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const value = (payload as Record<string, unknown>)[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * `POST /api/chatbots/knowledge/extract`: the file's raw bytes, its name in
 * `X-File-Name`. The API client only sends JSON, so this one request builds
 * its own headers (session and organization, as the client does) and turns
 * a refusal into the same `ApiError`.
 */
export async function extractKnowledge({
  file,
  organizationId,
}: {
  file: File;
  organizationId: OrganizationIdInput;
}): Promise<ExtractedKnowledge> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': knowledgeContentType(file.name) ?? 'application/octet-stream',
    'X-File-Name': encodeURIComponent(file.name),
  };
  const token = getSessionToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (token && organizationId) headers['X-Organization-Id'] = organizationId;

  let response: Response;
  try {
    response = await fetch(buildApiUrl('/chatbots/knowledge/extract'), {
      method: 'POST',
      headers,
      body: file,
    });
  } catch (error) {
    throw new ApiError({
      message: 'The server could not be reached. Check your connection and try again.',
      status: 0,
      code: 'NETWORK_ERROR',
      cause: error,
    });
  }
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError({
      message: errorField(payload, 'error') ?? CHATBOT_MESSAGES.unreadableFile(file.name),
      status: response.status,
      code: errorField(payload, 'code') ?? `HTTP_${response.status}`,
      body: payload,
    });
  }
  return payload as ExtractedKnowledge;
}

export function useExtractKnowledge(organizationId: OrganizationIdInput) {
  return useMutation({ mutationFn: (file: File) => extractKnowledge({ file, organizationId }) });
}
