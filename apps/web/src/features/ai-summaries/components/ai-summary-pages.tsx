import { useParams } from 'react-router';

import { courseVariableSummarySource, variableSummarySource } from '../api/get-ai-summary';

import { AiSummaryView, UnknownVariableTypeMessage } from './ai-summary-view';

/** `/course/:courseId/variable/:variableName/ai-summary`. */
export function CourseVariableAiSummaryPage() {
  const params = useParams();
  return (
    <AiSummaryView
      key={`${params.courseId ?? ''}:${params.variableName ?? ''}`}
      source={courseVariableSummarySource(params)}
    />
  );
}

/** `/variable/:variableId/:variableType/ai-summary`: `course` or `chatbot`. */
export function VariableAiSummaryPage() {
  const params = useParams();
  const source = variableSummarySource(params);
  if (!source) return <UnknownVariableTypeMessage />;
  return <AiSummaryView key={`${source.kind}:${params.variableId ?? ''}`} source={source} />;
}
