import { CHATBOT_MESSAGES, MAX_KNOWLEDGE_FILE_BYTES, type KnowledgeFormat } from '@courselens/contracts';
import { useMutation } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api-client';
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

/**
 * `POST /api/chatbots/knowledge/extract`: the file's raw bytes, its name in
 * `X-File-Name` (encoded: a header carries ASCII only). The organization
 * is the one the form belongs to.
 */
export function extractKnowledge({
  file,
  organizationId,
}: {
  file: File;
  organizationId: OrganizationIdInput;
}): Promise<ExtractedKnowledge> {
  return apiRequest<ExtractedKnowledge>('/chatbots/knowledge/extract', {
    method: 'POST',
    rawBody: file,
    // By its extension: a browser's own type for a .md file varies, and is often none.
    contentType: knowledgeContentType(file.name) ?? 'application/octet-stream',
    headers: {
      'X-File-Name': encodeURIComponent(file.name),
      ...(organizationId ? { 'X-Organization-Id': organizationId } : {}),
    },
    fallbackErrorMessage: () => CHATBOT_MESSAGES.unreadableFile(file.name),
  });
}

export function useExtractKnowledge(organizationId: OrganizationIdInput) {
  return useMutation({ mutationFn: (file: File) => extractKnowledge({ file, organizationId }) });
}
