import { PIPELINE_MESSAGES, type PipelineDetail, type PipelineNodeType } from '@courselens/contracts';
import { ReactFlowProvider, useReactFlow } from '@xyflow/react';
import {
  ArrowLeft,
  CalendarRange,
  FlaskConical,
  History,
  LayoutGrid,
  List,
  Network,
  Plus,
  Redo2,
  Save,
  SearchX,
  Undo2,
} from 'lucide-react';
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { Link, useBlocker, useLocation, useParams, useSearchParams } from 'react-router';

import { PageMessage } from '@/components/page-message';
import { ReportTabs } from '@/components/report-tabs';
import { Button, buttonClassName } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Sheet } from '@/components/ui/sheet';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { TextField } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { useMediaQuery } from '@/hooks/use-media-query';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

import { useEditorOptions } from '../api/get-editor-options';
import { usePipeline } from '../api/get-pipeline';
import { useUpdatePipeline } from '../api/update-pipeline';

import { autoLayout } from './editor/auto-layout';
import { DryRunDialog } from './editor/dry-run-dialog';
import {
  EDITOR_MESSAGES,
  addConnection,
  canHaveInputs,
  canHaveOutputs,
  connectionProblem,
  defaultNodeData,
  graphFromApi,
  graphProblems,
  graphToApi,
  moveNodes,
  nextNodeId,
  nodeTitle,
  problemsByNode,
  removeElements,
  serverOnlyProblems,
  updateNodeData,
  type EditorDocument,
  type EditorNode,
  type EditorProblem,
  type NewConnection,
  type NodeLookups,
  type XY,
} from './editor/graph-model';
import { GraphListView } from './editor/graph-list-view';
import {
  canRedo,
  canUndo,
  createHistory,
  historyReducer,
  type History as EditorHistory,
} from './editor/history';
import { NodeForm, type NodeDataUpdate } from './editor/node-form';
import { NodePalette } from './editor/node-palette';
import { PipelineCanvas, type Selection } from './editor/pipeline-canvas';
import { ProblemsList } from './editor/problems-list';
import { useEditorShortcuts } from './editor/shortcuts';
import { TestRunDialog } from './editor/test-run-dialog';
import { VersionsSheet } from './editor/versions-sheet';
import { RunsTab } from './runs/runs-tab';
import { PIPELINE_STATUS_LOOKS, PipelineStatusBadge } from './status';

/** What the list page passes when turning a pipeline on was refused: show why. */
export type EditorLocationState = { showProblems?: boolean } | null;

const PROBLEMS_ID = 'pipeline-problems';
const NO_SELECTION: Selection = { nodeIds: new Set(), edgeIds: new Set() };
/** Horizontal room between a node and the one added after it. */
const NEXT_NODE_GAP = 280;

function documentFrom(pipeline: PipelineDetail): EditorDocument {
  const graph = graphFromApi(pipeline.nodes, pipeline.edges);
  const laidOut = graph.hasMissingPositions ? autoLayout(graph) : graph;
  return {
    name: pipeline.name,
    description: pipeline.description ?? '',
    nodes: laidOut.nodes,
    edges: laidOut.edges,
  };
}

/** `/pipeline/:id`: the editor and the runs of one pipeline. */
export function PipelineEditorPage() {
  const { id = '' } = useParams();
  const organizationId = useSession().currentOrganization?.id;
  const pipeline = usePipeline(organizationId, id);

  if (pipeline.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center py-24 text-fg-muted">
        <title>Pipeline · CourseLens</title>
        <Spinner size="lg" label="Loading the pipeline" />
      </div>
    );
  }
  if (pipeline.isError) {
    const isMissing =
      isApiError(pipeline.error) && (pipeline.error.status === 404 || pipeline.error.status === 400);
    return (
      <PageMessage
        icon={<SearchX />}
        title={isMissing ? PIPELINE_MESSAGES.notFound : 'The pipeline could not be loaded'}
        actions={
          <Link to={paths.pipelines.list.href()} className={buttonClassName()}>
            Back to pipelines
          </Link>
        }
      >
        {isMissing
          ? 'It may have been deleted, or it belongs to another organization.'
          : pipeline.error.message}
      </PageMessage>
    );
  }
  return (
    <ReactFlowProvider>
      <PipelineEditor key={pipeline.data.id} pipeline={pipeline.data} organizationId={organizationId} />
    </ReactFlowProvider>
  );
}

type PipelineEditorProps = { pipeline: PipelineDetail; organizationId: string | undefined };

function PipelineEditor({ pipeline, organizationId }: PipelineEditorProps) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const tab = searchParams.get('tab') === 'runs' ? 'runs' : 'editor';
  const isWide = useMediaQuery('(min-width: 1024px)');
  const isTablet = useMediaQuery('(min-width: 768px)');
  const isReadMostly = !isTablet;
  const flow = useReactFlow();
  const options = useEditorOptions(organizationId);
  const update = useUpdatePipeline(organizationId);

  const [history, dispatch] = useReducer(
    historyReducer<EditorDocument>,
    pipeline,
    (initial): EditorHistory<EditorDocument> => createHistory(documentFrom(initial)),
  );
  const doc = history.present;
  const [saved, setSaved] = useState<EditorDocument>(history.present);
  const isDirty = doc !== saved;
  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  const [view, setView] = useState<'canvas' | 'list'>('canvas');
  const [formNodeId, setFormNodeId] = useState<string | null>(null);
  const [isPaletteOpen, setIsPaletteOpen] = useState(false);
  const [isVersionsOpen, setIsVersionsOpen] = useState(false);
  const [isTestOpen, setIsTestOpen] = useState(false);
  const [isDryRunOpen, setIsDryRunOpen] = useState(false);

  const lookups = useMemo<NodeLookups>(() => {
    const courses = new Map(options.courses.map((course) => [course.id, course.title]));
    const actions = new Map(options.actions.map((action) => [action.id, action.name]));
    const variables = new Map(options.variables.map((variable) => [variable.id, variable.name]));
    // An agent that is off starts no conversation, so its node starts no run: the summary says so.
    const chatbots = new Map(
      options.chatbots.map((chatbot) => [
        chatbot.id,
        chatbot.active ? chatbot.name : `${chatbot.name} (off)`,
      ]),
    );
    return {
      courseTitle: (courseId) => courses.get(courseId) ?? null,
      actionName: (actionId) => actions.get(actionId) ?? null,
      variableName: (variableId) => variables.get(variableId) ?? null,
      chatbotName: (chatbotId) => chatbots.get(chatbotId) ?? null,
    };
  }, [options.courses, options.actions, options.variables, options.chatbots]);

  // The server's problems of the saved graph that the editor cannot work out itself (a course or an
  // action that no longer exists); the graph rules are checked here, on the graph as it is now.
  const savedRuleProblems = useMemo(() => graphProblems(saved), [saved]);
  const problems = useMemo<EditorProblem[]>(() => {
    const local = graphProblems(doc);
    if (doc.name.trim() === '')
      local.unshift({ kind: 'form', nodeId: null, message: PIPELINE_MESSAGES.nameRequired });
    return [...local, ...serverOnlyProblems(pipeline.problems, [...local, ...savedRuleProblems])];
  }, [doc, pipeline.problems, savedRuleProblems]);
  const nodeProblems = useMemo(() => problemsByNode(problems), [problems]);
  const hasFormProblems = problems.some((problem) => problem.kind === 'form');
  const hasBlockingProblems = problems.some((problem) => problem.kind !== 'server' || !isDirty);

  const selectedNodes = doc.nodes.filter((node) => selection.nodeIds.has(node.id));
  const selectedNode = selectedNodes.length === 1 ? selectedNodes[0]! : null;
  const formNode = formNodeId ? (doc.nodes.find((node) => node.id === formNodeId) ?? null) : null;

  // ---- changes ---------------------------------------------------------------------------

  const change = useCallback(
    (updateDoc: (current: EditorDocument) => EditorDocument, coalesce?: string) =>
      dispatch({ type: 'change', update: updateDoc, coalesce }),
    [],
  );

  function selectOnly(nodeId: string | null) {
    setSelection(nodeId ? { nodeIds: new Set([nodeId]), edgeIds: new Set() } : NO_SELECTION);
  }

  function showNode(nodeId: string) {
    selectOnly(nodeId);
    if (!isWide) setFormNodeId(nodeId);
    if (view === 'canvas')
      void flow.fitView({ nodes: [{ id: nodeId }], maxZoom: 1, duration: 250, padding: 0.6 });
  }

  function handleAddNode(type: PipelineNodeType) {
    const id = nextNodeId(doc, type);
    const after =
      selectedNode && canHaveOutputs(selectedNode.type) && canHaveInputs(type) ? selectedNode : null;
    let position: XY;
    if (after) {
      const siblings = doc.edges.filter((edge) => edge.source === after.id).length;
      position = { x: after.position.x + NEXT_NODE_GAP, y: after.position.y + siblings * 110 };
    } else if (doc.nodes.length === 0) {
      position = { x: 0, y: 0 };
    } else {
      const rightmost = doc.nodes.reduce((best, node) => (node.position.x > best.position.x ? node : best));
      position = { x: rightmost.position.x + NEXT_NODE_GAP, y: rightmost.position.y };
    }
    const node: EditorNode = { id, type, position, data: defaultNodeData(type) };
    change((current) => {
      let next: EditorDocument = { ...current, nodes: [...current.nodes, node] };
      if (after) {
        const taken = new Set(
          current.edges.filter((edge) => edge.source === after.id).map((edge) => edge.sourceHandle),
        );
        const sourceHandle = after.type === 'branch' ? (taken.has('yes') ? 'no' : 'yes') : null;
        const connection = { source: after.id, target: id, sourceHandle };
        if (!connectionProblem(next, connection)) next = addConnection(next, connection);
      }
      return next;
    });
    selectOnly(id);
    setIsPaletteOpen(false);
    if (!isWide) setFormNodeId(id);
    if (view === 'canvas') {
      requestAnimationFrame(() => void flow.fitView({ maxZoom: 1, duration: 200, padding: 0.2 }));
    }
  }

  function handleDropNode(type: PipelineNodeType, position: XY) {
    const id = nextNodeId(doc, type);
    change((current) => ({
      ...current,
      nodes: [...current.nodes, { id, type, position, data: defaultNodeData(type) }],
    }));
    selectOnly(id);
  }

  function handleMove(positions: Map<string, XY>, isDragging: boolean) {
    change((current) => moveNodes(current, positions), `move:${[...positions.keys()].join(',')}`);
    if (!isDragging) dispatch({ type: 'seal' });
  }

  function handleConnect(connection: NewConnection) {
    const problem = connectionProblem(doc, connection);
    if (problem) {
      toast.error(problem);
      return;
    }
    change((current) => addConnection(current, connection));
  }

  function handleNodeData(nodeId: string, updateData: NodeDataUpdate, coalesce?: string) {
    change(
      (current) => updateNodeData(current, nodeId, updateData),
      coalesce ? `data:${coalesce}` : undefined,
    );
  }

  function handleDelete() {
    if (selection.nodeIds.size === 0 && selection.edgeIds.size === 0) return;
    change((current) => removeElements(current, selection.nodeIds, selection.edgeIds));
    setSelection(NO_SELECTION);
    setFormNodeId(null);
  }

  function removeNode(nodeId: string) {
    change((current) => removeElements(current, new Set([nodeId]), new Set()));
    setSelection(NO_SELECTION);
    setFormNodeId(null);
  }

  /** The sizes the canvas measured (none in the list view: auto-layout then uses the usual size). */
  function measuredSizes() {
    const sizes = new Map<string, { width: number; height: number }>();
    for (const node of doc.nodes) {
      const measured = flow.getInternalNode(node.id)?.measured;
      if (measured?.width && measured.height)
        sizes.set(node.id, { width: measured.width, height: measured.height });
    }
    return sizes;
  }

  function handleAutoLayout() {
    change((current) => autoLayout(current, measuredSizes()));
    if (view === 'canvas')
      requestAnimationFrame(() => void flow.fitView({ maxZoom: 1, duration: 250, padding: 0.2 }));
  }

  function handleRestored(restored: PipelineDetail) {
    const next = documentFrom(restored);
    change(() => next);
    setSaved(next);
    setSelection(NO_SELECTION);
  }

  function revealProblems() {
    const list = document.getElementById(PROBLEMS_ID);
    list?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
    list?.focus({ preventScroll: true });
  }

  // ---- saving and turning on ----------------------------------------------------------------

  async function save(extra: { active?: boolean } = {}): Promise<PipelineDetail | null> {
    if (hasFormProblems) {
      toast.error(EDITOR_MESSAGES.cannotSave);
      revealProblems();
      return null;
    }
    if (pipeline.active && extra.active !== false && problems.some((problem) => problem.kind === 'graph')) {
      // The server keeps a pipeline that is on runnable: it refuses such a save.
      toast.error(EDITOR_MESSAGES.activeHasProblems);
      revealProblems();
      return null;
    }
    const sent = doc;
    try {
      const result = await update.mutateAsync({
        pipelineId: pipeline.id,
        input: {
          name: sent.name.trim(),
          description: sent.description.trim() || null,
          ...graphToApi(sent),
          ...extra,
        },
      });
      setSaved(sent);
      dispatch({ type: 'seal' });
      return result;
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The pipeline could not be saved. Please try again.');
      return null;
    }
  }

  async function handleSave() {
    const result = await save();
    if (result) toast.success(`Saved as version ${result.version}`);
  }

  async function handleActiveChange(active: boolean) {
    if (active && hasBlockingProblems) {
      toast.error(PIPELINE_MESSAGES.cannotActivate);
      revealProblems();
      return;
    }
    if (isDirty) {
      if (await save({ active })) toast.success(active ? 'Saved and turned on' : 'Saved and turned off');
      return;
    }
    try {
      await update.mutateAsync({ pipelineId: pipeline.id, input: { active } });
      toast.success(active ? 'Pipeline turned on' : 'Pipeline turned off');
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The pipeline could not be changed. Please try again.');
    }
  }

  function openWithGraph(open: (isOpen: boolean) => void) {
    if (hasFormProblems) {
      toast.error(EDITOR_MESSAGES.cannotTest);
      revealProblems();
      return;
    }
    if (doc.nodes.length === 0) {
      toast.error(EDITOR_MESSAGES.emptyGraph);
      return;
    }
    open(true);
  }

  useEditorShortcuts(
    {
      undo: () => dispatch({ type: 'undo' }),
      redo: () => dispatch({ type: 'redo' }),
      save: () => void handleSave(),
      delete: handleDelete,
    },
    tab === 'editor',
  );

  // ---- leaving with unsaved changes ---------------------------------------------------------

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => isDirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!isDirty) return;
    const handleBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => window.removeEventListener('beforeunload', handleBeforeUnload);
  }, [isDirty]);

  // The list sends people here when turning the pipeline on was refused: show them why.
  const showProblemsOnArrival = (location.state as EditorLocationState)?.showProblems === true;
  useEffect(() => {
    if (showProblemsOnArrival) revealProblems();
  }, [showProblemsOnArrival]);

  // ---- rendering ---------------------------------------------------------------------------

  const status = PIPELINE_STATUS_LOOKS[pipeline.status];
  const hasManualSource = pipeline.nodes.some((node) => node.type === 'manual');
  const canvas = (
    <PipelineCanvas
      graph={doc}
      lookups={lookups}
      problems={nodeProblems}
      selection={selection}
      isReadMostly={isReadMostly}
      onMove={handleMove}
      onSelectionChange={setSelection}
      onConnect={handleConnect}
      isValidConnection={(connection) => connectionProblem(doc, connection) === null}
      onDropNode={handleDropNode}
      onNodeOpen={(nodeId) => {
        if (!isWide) setFormNodeId(nodeId);
      }}
    />
  );
  const listView = (
    <GraphListView
      graph={doc}
      lookups={lookups}
      problems={nodeProblems}
      selectedNodeId={selectedNode?.id ?? null}
      isReadOnly={false}
      onAddNode={handleAddNode}
      onEditNode={showNode}
      onRemoveNode={removeNode}
      onConnect={(connection) => change((current) => addConnection(current, connection))}
      onRemoveEdge={(edgeId) => change((current) => removeElements(current, new Set(), new Set([edgeId])))}
    />
  );
  const problemsList = (
    <ProblemsList id={PROBLEMS_ID} problems={problems} onShowNode={showNode} isServerStale={isDirty} />
  );
  const settings = (
    <div className="flex flex-col gap-4">
      <h3 className="text-base font-semibold text-fg">Pipeline</h3>
      <TextField
        label="Name"
        value={doc.name}
        maxLength={200}
        onChange={(event) => {
          const name = event.target.value;
          change((current) => ({ ...current, name }), 'doc:name');
        }}
        error={doc.name.trim() === '' ? PIPELINE_MESSAGES.nameRequired : undefined}
      />
      <label className="flex flex-col gap-1.5 text-sm font-medium text-fg">
        <span className="flex items-baseline justify-between">
          Description <span className="text-xs font-normal text-fg-subtle">Optional</span>
        </span>
        <textarea
          value={doc.description}
          maxLength={2000}
          rows={3}
          onChange={(event) => {
            const description = event.target.value;
            change((current) => ({ ...current, description }), 'doc:description');
          }}
          placeholder="What this pipeline is for"
          className="block w-full rounded-lg border border-line-strong bg-surface px-3 py-2 text-sm text-fg shadow-xs placeholder:text-fg-subtle focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-focus"
        />
      </label>
      <p className="text-xs text-fg-muted">
        Select a node to edit it. Tab moves through the nodes, Enter selects one, the arrow keys move it,
        Delete removes it. Ctrl+Z undoes, Ctrl+Shift+Z redoes, Ctrl+S saves (Cmd on a Mac).
      </p>
    </div>
  );

  return (
    <div className="flex min-w-0 flex-1 flex-col gap-4 px-4 py-6 sm:px-6">
      <title>{`${doc.name || 'Pipeline'} · CourseLens`}</title>
      <Link
        to={paths.pipelines.list.href()}
        className="inline-flex items-center gap-1.5 self-start rounded text-sm text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-focus [&_svg]:size-4"
      >
        <ArrowLeft aria-hidden="true" />
        Pipelines
      </Link>
      <header className="flex flex-col gap-3 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-bold tracking-tight break-words text-fg">
              {doc.name || 'Untitled pipeline'}
            </h1>
            <PipelineStatusBadge status={pipeline.status} describedBy="pipeline-status-reason" />
            {isDirty ? (
              <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 dark:bg-amber-400/10 dark:text-amber-200">
                Unsaved changes
              </span>
            ) : null}
          </div>
          <p id="pipeline-status-reason" className="mt-1 text-sm text-fg-muted">
            {status.reason} Version {pipeline.version}.
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-3">
          <span aria-hidden="true" className="text-sm font-medium text-fg">
            Active
          </span>
          <Switch
            label="Active"
            checked={pipeline.active}
            disabled={update.isPending}
            describedBy="pipeline-status-reason"
            onChange={(active) => void handleActiveChange(active)}
          />
        </div>
      </header>

      <ReportTabs
        label="Pipeline sections"
        current={tab}
        tabs={[
          { id: 'editor', label: 'Editor', href: location.pathname },
          { id: 'runs', label: 'Runs', href: `${location.pathname}?tab=runs` },
        ]}
      />

      {tab === 'runs' ? (
        <RunsTab
          organizationId={organizationId}
          pipelineId={pipeline.id}
          canRunByHand={pipeline.active && hasManualSource}
          isActive={pipeline.active}
          runRetentionDays={pipeline.runRetentionDays}
        />
      ) : (
        <>
          <div role="toolbar" aria-label="Editor" className="flex flex-wrap items-center gap-1.5">
            <div className="flex flex-wrap items-center gap-1.5">
              {isWide ? null : (
                <Button variant="outline" size="sm" onClick={() => setIsPaletteOpen(true)}>
                  <Plus aria-hidden="true" />
                  Add node
                </Button>
              )}
              <Button
                variant="ghost"
                size="sm"
                onClick={() => dispatch({ type: 'undo' })}
                disabled={!canUndo(history)}
                aria-keyshortcuts="Control+Z Meta+Z"
                title="Undo (Ctrl+Z)"
              >
                <Undo2 aria-hidden="true" />
                <span className={isTablet ? undefined : 'sr-only'}>Undo</span>
              </Button>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => dispatch({ type: 'redo' })}
                disabled={!canRedo(history)}
                aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z"
                title="Redo (Ctrl+Shift+Z)"
              >
                <Redo2 aria-hidden="true" />
                <span className={isTablet ? undefined : 'sr-only'}>Redo</span>
              </Button>
              <Button variant="ghost" size="sm" onClick={handleAutoLayout} disabled={doc.nodes.length === 0}>
                <LayoutGrid aria-hidden="true" />
                <span className={isTablet ? undefined : 'sr-only'}>Auto-layout</span>
              </Button>
              <Button
                variant="ghost"
                size="sm"
                aria-pressed={view === 'list'}
                onClick={() => setView((current) => (current === 'canvas' ? 'list' : 'canvas'))}
              >
                {view === 'list' ? <Network aria-hidden="true" /> : <List aria-hidden="true" />}
                <span className={isTablet ? undefined : 'sr-only'}>
                  {view === 'list' ? 'Canvas' : 'List view'}
                </span>
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setIsVersionsOpen(true)}>
                <History aria-hidden="true" />
                <span className={isTablet ? undefined : 'sr-only'}>Versions</span>
              </Button>
            </div>
            <div className="ml-auto flex flex-wrap items-center gap-1.5">
              <Button variant="outline" size="sm" onClick={() => openWithGraph(setIsTestOpen)}>
                <FlaskConical aria-hidden="true" />
                Test run
              </Button>
              <Button variant="outline" size="sm" onClick={() => openWithGraph(setIsDryRunOpen)}>
                <CalendarRange aria-hidden="true" />
                Dry run
              </Button>
              <Button
                size="sm"
                onClick={() => void handleSave()}
                isLoading={update.isPending}
                disabled={!isDirty}
                aria-keyshortcuts="Control+S Meta+S"
                title="Save (Ctrl+S)"
              >
                <Save aria-hidden="true" />
                Save
              </Button>
            </div>
          </div>

          <div
            className={cn(
              'grid min-h-0 gap-4',
              isWide
                ? 'h-[calc(100dvh-15rem)] min-h-[34rem] grid-cols-[12rem_minmax(0,1fr)_20rem]'
                : 'grid-cols-1',
            )}
          >
            {isWide ? (
              <aside
                aria-label="Node palette"
                className="min-h-0 overflow-y-auto rounded-2xl border border-line bg-surface p-3"
              >
                <NodePalette
                  isCompact
                  onAdd={handleAddNode}
                  isDraggable={view === 'canvas'}
                  addHint={
                    selectedNode && canHaveOutputs(selectedNode.type)
                      ? 'Adds it after the selected node.'
                      : null
                  }
                />
              </aside>
            ) : null}
            <div className="flex min-h-0 min-w-0 flex-col gap-3">
              <div
                className={cn(
                  'min-h-0 overflow-hidden rounded-2xl border border-line bg-surface',
                  isWide ? 'flex-1' : view === 'canvas' ? 'h-[60dvh] min-h-[22rem]' : null,
                  view === 'list' ? 'overflow-y-auto' : null,
                )}
                data-testid="pipeline-editor-area"
              >
                {view === 'canvas' ? (
                  <div className="relative size-full">
                    {canvas}
                    {doc.nodes.length === 0 ? (
                      <p className="pointer-events-none absolute inset-x-6 top-1/2 -translate-y-1/2 text-center text-sm text-fg-muted">
                        {isWide
                          ? 'Start with a source: click one in the list on the left, or drag it here.'
                          : 'Start with a source: press “Add node”.'}
                      </p>
                    ) : null}
                  </div>
                ) : (
                  listView
                )}
              </div>
              <div
                className={cn(
                  'rounded-2xl border border-line bg-surface p-3',
                  isWide ? 'max-h-44 overflow-y-auto' : null,
                )}
              >
                {problemsList}
              </div>
            </div>
            {isWide ? (
              <aside
                aria-label={selectedNode ? 'Selected node' : 'Pipeline settings'}
                className="min-h-0 overflow-y-auto rounded-2xl border border-line bg-surface p-4"
              >
                {selectedNode ? (
                  <NodeForm
                    key={selectedNode.id}
                    node={selectedNode}
                    options={options}
                    onChange={(updateData, coalesce) => handleNodeData(selectedNode.id, updateData, coalesce)}
                    onRemove={() => removeNode(selectedNode.id)}
                  />
                ) : (
                  settings
                )}
              </aside>
            ) : (
              <div className="rounded-2xl border border-line bg-surface p-4">{settings}</div>
            )}
          </div>
        </>
      )}

      {isWide ? null : (
        <>
          <Sheet open={isPaletteOpen} onClose={() => setIsPaletteOpen(false)} title="Add a node">
            <NodePalette
              onAdd={handleAddNode}
              isDraggable={false}
              addHint={
                selectedNode && canHaveOutputs(selectedNode.type) ? 'Adds it after the selected node.' : null
              }
            />
          </Sheet>
          <Sheet
            open={formNode !== null}
            onClose={() => setFormNodeId(null)}
            title={formNode ? `Edit ${nodeTitle(formNode)}` : 'Edit node'}
            footer={
              <Button className="w-full sm:w-auto" onClick={() => setFormNodeId(null)}>
                Done
              </Button>
            }
          >
            {formNode ? (
              <NodeForm
                node={formNode}
                options={options}
                onChange={(updateData, coalesce) => handleNodeData(formNode.id, updateData, coalesce)}
                onRemove={() => removeNode(formNode.id)}
              />
            ) : null}
          </Sheet>
        </>
      )}

      <VersionsSheet
        open={isVersionsOpen}
        onClose={() => setIsVersionsOpen(false)}
        organizationId={organizationId}
        pipelineId={pipeline.id}
        currentVersion={pipeline.version}
        onRestored={handleRestored}
        isDirty={isDirty}
        isReadOnly={false}
      />
      {isTestOpen ? (
        <TestRunDialog
          open
          onClose={() => setIsTestOpen(false)}
          organizationId={organizationId}
          pipelineId={pipeline.id}
          graph={doc}
        />
      ) : null}
      {isDryRunOpen ? (
        <DryRunDialog open onClose={() => setIsDryRunOpen(false)} pipelineId={pipeline.id} graph={doc} />
      ) : null}
      <Dialog
        open={blocker.state === 'blocked'}
        onClose={() => blocker.reset?.()}
        title="Leave without saving?"
        description="The changes made since the last save will be lost."
      >
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => blocker.reset?.()} data-autofocus>
            Stay
          </Button>
          <Button variant="danger" onClick={() => blocker.proceed?.()}>
            Leave without saving
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
