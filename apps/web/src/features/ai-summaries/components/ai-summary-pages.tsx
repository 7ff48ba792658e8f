import { aiSummaryVariableTypeSchema } from '@courselens/contracts';
import { useParams } from 'react-router';

import { AiSummaryView, UnknownVariableTypeMessage } from './ai-summary-view';

/** `/course/:courseId/variable/:variableName/ai-summary`. */
export function CourseVariableAiSummaryPage() {
  const { courseId = '', variableName = '' } = useParams();
  return (
    <AiSummaryView
      key={`${courseId}:${variableName}`}
      source={{ kind: 'course-variable', courseId, variableName }}
    />
  );
}

/** `/variable/:variableId/:variableType/ai-summary`: `course` or `chatbot`. */
export function VariableAiSummaryPage() {
  const { variableId = '', variableType } = useParams();
  const type = aiSummaryVariableTypeSchema.safeParse(variableType);
  if (!type.success) return <UnknownVariableTypeMessage />;
  return (
    <AiSummaryView
      key={`${type.data}:${variableId}`}
      source={
        type.data === 'course' ? { kind: 'variable', variableId } : { kind: 'chatbot-variable', variableId }
      }
    />
  );
}
