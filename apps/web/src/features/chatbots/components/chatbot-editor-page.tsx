import type { Chatbot, ChatbotInput } from '@courselens/contracts';
import { ArrowLeft, ExternalLink, SearchX, Trash2 } from 'lucide-react';
import { useCallback, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';

import { AgentAvatar } from '@/components/agent-avatar';
import { PageHeader } from '@/components/page-header';
import { PageMessage } from '@/components/page-message';
import { ReportTabs } from '@/components/report-tabs';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClassName } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { toast } from '@/lib/toast';

import { useCreateChatbot } from '../api/create-chatbot';
import { useChatbot } from '../api/get-chatbot';
import { useUpdateChatbot } from '../api/update-chatbot';

import { ChatbotForm } from './chatbot-form';
import {
  emptyChatbotFormValues,
  formValuesFromChatbot,
  serverFieldProblems,
  type FieldProblem,
} from './chatbot-form-model';
import { ConversationsTab } from './conversations-tab';
import { DeleteChatbotDialog } from './delete-chatbot-dialog';
import { EmbedTab } from './embed-tab';
import { InsightsTab } from './insights-tab';
import { ResultsTab } from './results-tab';

const pageClassName = 'mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8';

export const CHATBOT_TABS = ['settings', 'embed', 'conversations', 'results', 'insights'] as const;
export type ChatbotTab = (typeof CHATBOT_TABS)[number];

const TAB_LABELS: Record<ChatbotTab, string> = {
  settings: 'Settings',
  embed: 'Embed',
  conversations: 'Conversations',
  results: 'Results',
  insights: 'Insights',
};

/** `?tab=` when it names a tab, else the settings. */
export function readChatbotTab(searchParams: URLSearchParams): ChatbotTab {
  const tab = searchParams.get('tab');
  return tab !== null && (CHATBOT_TABS as readonly string[]).includes(tab) ? (tab as ChatbotTab) : 'settings';
}

function BackToChatbots() {
  return (
    <Link
      to={paths.chatbots.list.href()}
      className="inline-flex items-center gap-1.5 self-start rounded text-sm text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-focus [&_svg]:size-4"
    >
      <ArrowLeft aria-hidden="true" />
      Custom AI Agents
    </Link>
  );
}

/** Problems a 400 names on fields go on the fields; anything else is a toast. */
function handleSaveError(error: unknown): FieldProblem[] {
  const problems = serverFieldProblems(error);
  if (problems.length > 0) return problems;
  toast.error(isApiError(error) ? error.message : 'The agent could not be saved. Please try again.');
  return [];
}

/** `/chatbots/create`: the form; once saved, the agent's own page (with its embed code) opens. */
export function CreateChatbotPage() {
  const organizationId = useSession().currentOrganization?.id;
  const create = useCreateChatbot(organizationId);
  const navigate = useNavigate();

  async function handleSubmit(input: ChatbotInput) {
    try {
      const chatbot = await create.mutateAsync(input);
      toast.success(`Agent “${chatbot.name}” created`);
      void navigate(paths.chatbots.edit.href(chatbot.id));
      return [];
    } catch (error) {
      return handleSaveError(error);
    }
  }

  return (
    <div className={pageClassName}>
      <title>Create agent · CourseLens</title>
      <BackToChatbots />
      <PageHeader
        title="Create agent"
        description="Give an agent instructions, knowledge and the variables it collects."
      />
      <ChatbotForm
        defaultValues={emptyChatbotFormValues()}
        organizationId={organizationId}
        submitLabel="Create agent"
        onSubmit={handleSubmit}
        onCancel={() => void navigate(paths.chatbots.list.href())}
      />
    </div>
  );
}

function EditHeader({ chatbot, onDelete }: { chatbot: Chatbot; onDelete: () => void }) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="flex min-w-0 items-center gap-3">
        <AgentAvatar name={chatbot.name} color={chatbot.color} avatar={chatbot.avatar} size="lg" />
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-x-3 gap-y-1 text-2xl font-bold tracking-tight break-words text-fg sm:text-3xl">
            {chatbot.name}
            {chatbot.active ? (
              <Badge variant="success" dot>
                Active
              </Badge>
            ) : (
              <Badge dot>Inactive</Badge>
            )}
          </h1>
          {chatbot.description ? (
            <p className="mt-1 line-clamp-2 text-sm break-words text-fg-muted sm:text-base">
              {chatbot.description}
            </p>
          ) : null}
        </div>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <a
          href={paths.chatbots.chat.href(chatbot.id)}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClassName({ variant: 'outline' })}
        >
          <ExternalLink aria-hidden="true" />
          Open chat
          <span className="sr-only">(opens in a new tab)</span>
        </a>
        <Button variant="outline" onClick={onDelete}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
    </div>
  );
}

/**
 * `/chatbots/edit/:id`: the agent's settings and, in tabs, its embed code,
 * conversations, captured results and insights. The settings form stays
 * mounted while another tab shows, so changes not yet saved survive a look
 * at the conversations.
 */
export function EditChatbotPage() {
  const { id = '' } = useParams();
  const organizationId = useSession().currentOrganization?.id;
  const chatbot = useChatbot(organizationId, id);
  const update = useUpdateChatbot(organizationId);
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const tab = readChatbotTab(searchParams);
  const [isDeleting, setIsDeleting] = useState(false);
  const [isDirty, setIsDirty] = useState(false);
  const handleDirtyChange = useCallback((dirty: boolean) => setIsDirty(dirty), []);

  if (chatbot.isPending) {
    return (
      <div className={pageClassName}>
        <title>Edit agent · CourseLens</title>
        <div className="flex justify-center py-20 text-accent">
          <Spinner label="Loading the agent" />
        </div>
      </div>
    );
  }
  if (chatbot.isError) {
    const isMissing = isApiError(chatbot.error) && chatbot.error.status === 404;
    return (
      <PageMessage
        icon={<SearchX />}
        title={isMissing ? 'Agent not found' : 'The agent could not be loaded'}
        actions={
          <Link to={paths.chatbots.list.href()} className={buttonClassName()}>
            Back to agents
          </Link>
        }
      >
        {isMissing
          ? 'It may have been deleted, or it belongs to another organization.'
          : chatbot.error.message}
      </PageMessage>
    );
  }

  const saved = chatbot.data;

  async function handleSubmit(input: ChatbotInput) {
    try {
      const updated = await update.mutateAsync({ chatbotId: saved.id, input });
      toast.success(`Agent “${updated.name}” saved`);
      setIsDirty(false);
      return [];
    } catch (error) {
      return handleSaveError(error);
    }
  }

  return (
    <div className={pageClassName}>
      <title>{`${saved.name} · Custom AI Agents · CourseLens`}</title>
      <BackToChatbots />
      <EditHeader chatbot={saved} onDelete={() => setIsDeleting(true)} />
      <div className="flex flex-col gap-2">
        <ReportTabs
          label="Agent sections"
          current={tab}
          tabs={CHATBOT_TABS.map((id) => ({
            id,
            label: TAB_LABELS[id],
            href: id === 'settings' ? location.pathname : `${location.pathname}?tab=${id}`,
          }))}
        />
        {isDirty && tab !== 'settings' ? (
          <p className="text-xs text-amber-700 dark:text-amber-300">
            Settings has changes that are not saved yet.
          </p>
        ) : null}
      </div>
      <div hidden={tab !== 'settings'}>
        <ChatbotForm
          // A new form after each save: it starts again from what the server stored.
          key={saved.updatedAt}
          defaultValues={formValuesFromChatbot(saved)}
          organizationId={organizationId}
          submitLabel="Save changes"
          onSubmit={handleSubmit}
          onCancel={() => void navigate(paths.chatbots.list.href())}
          onDirtyChange={handleDirtyChange}
        />
      </div>
      {tab === 'embed' ? <EmbedTab chatbotId={saved.id} isActive={saved.active} /> : null}
      {tab === 'conversations' ? <ConversationsTab organizationId={organizationId} chatbot={saved} /> : null}
      {tab === 'results' ? <ResultsTab organizationId={organizationId} chatbot={saved} /> : null}
      {tab === 'insights' ? <InsightsTab organizationId={organizationId} chatbotId={saved.id} /> : null}
      <DeleteChatbotDialog
        chatbot={isDeleting ? saved : null}
        organizationId={organizationId}
        onClose={() => setIsDeleting(false)}
        onDeleted={() => void navigate(paths.chatbots.list.href())}
      />
    </div>
  );
}
