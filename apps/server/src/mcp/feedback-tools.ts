// The feedback host's tools: read a project's card, send it a report (repeat semantics kept: the same content gets
// the same receipt). Schemas come from openapi/feedback.yaml like the HTTP validator's.
import { DISPUTE_PROJECT } from '../disputes/report-kind';
import type { OpenApiReader } from '../http/openapi-resolve';
import { operationShape, type OperationShape } from '../http/operation-shapes';
import { defineTool, invokeOperation, type CheckedTool, type HandlerMap } from './tool';

export function feedbackTools(reader: OpenApiReader, handlers: HandlerMap): CheckedTool[] {
  const card = operationShape(reader, 'getFeedbackCard');
  const send = operationShape(reader, 'sendFeedbackReport');
  const dispute = operationShape(reader, 'disputeVerdict');
  const disputeStatus = operationShape(reader, 'getReportDispute');
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
    defineTool({
      name: 'dispute_verdict',
      title: 'Dispute a check verdict',
      description:
        'Says that the leaderboard got a check wrong: give the scanId (from get_company\'s report or get_scan), the checkId (e.g. llms-txt) and an observation of at least 10 characters saying what the site really serves. Files a feedback report of the kind dispute on the "leaderboard" project and starts a rescan of the site, or joins the one already asked for (at most one rescan per company per interval, an hour by default; each dispute counts against your scan rate limit, like start_scan). Returns the receipt: keep its id and call get_dispute with it to learn, once the rescan has ended, whether the verdict held or changed. The same dispute sent again returns the first receipt.',
      readOnly: false,
      idempotent: true,
      openWorld: false,
      inputSchema: withoutSlug(dispute).input,
      outputSchema: dispute.output,
      call: (args, ctx) => invokeOperation(handlers, dispute, { surface: 'mcp', ...args, slug: DISPUTE_PROJECT }, ctx),
    }),
    defineTool({
      name: 'get_dispute',
      title: 'Read where a dispute stands',
      description:
        'Reads a dispute by the receipt id dispute_verdict returned: rescanning while the rescan runs, then held (the rescan gave the same status), changed (another status, in rescanStatus) or unresolved (outcome says why), with one sentence of outcome.',
      readOnly: true,
      idempotent: true,
      openWorld: false,
      inputSchema: withoutSlug(disputeStatus).input,
      outputSchema: disputeStatus.output,
      call: (args, ctx) => invokeOperation(handlers, disputeStatus, { ...args, slug: DISPUTE_PROJECT }, ctx),
    }),
  ];
}

/** Disputes go to the service's own project: the tools fix the `slug` path parameter instead of asking for it. */
function withoutSlug(shape: OperationShape): OperationShape {
  const { slug: _slug, ...properties } = shape.input.properties;
  return { ...shape, input: { ...shape.input, properties, required: shape.input.required.filter((name) => name !== 'slug') } };
}
