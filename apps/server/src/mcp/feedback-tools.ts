// The feedback host's tools: read a project's card, send it a report (repeat semantics kept: the same content gets
// the same receipt). Schemas come from openapi/feedback.yaml like the HTTP validator's.
import type { OpenApiReader } from '../http/openapi-resolve';
import { operationShape } from './operation-schemas';
import { defineTool, invokeOperation, type CheckedTool, type HandlerMap } from './tool';

export function feedbackTools(reader: OpenApiReader, handlers: HandlerMap): CheckedTool[] {
  const card = operationShape(reader, 'getFeedbackCard');
  const send = operationShape(reader, 'sendFeedbackReport');
  return [
    defineTool({
      name: 'get_feedback_card',
      title: 'Read a feedback project card',
      description:
        "Reads a project's feedback card by slug (this service's own project is \"leaderboard\"): whether it accepts reports, whether an invite token is needed, the owner's invitation and guidance, and the JSON Schema of a report. Read it before send_feedback_report.",
      readOnly: true,
      idempotent: true,
      openWorld: false,
      inputSchema: card.input,
      outputSchema: card.output,
      call: (args, ctx) => invokeOperation(handlers, card, args, ctx),
    }),
    defineTool({
      name: 'send_feedback_report',
      title: 'Send a feedback report',
      description:
        'Tells a project what happened when you tried to use it: observation (what happened, 10+ characters) and outcome (succeeded, friction or blocked) are required; add goal, category, reference, surface, agent and environment when you know them. Sending the same content again returns the original receipt (repeat true) instead of a second report. Returns the receipt id. Rate limited per client.',
      readOnly: false,
      idempotent: true,
      openWorld: false,
      inputSchema: send.input,
      outputSchema: send.output,
      call: (args, ctx) => invokeOperation(handlers, send, args, ctx),
    }),
  ];
}
