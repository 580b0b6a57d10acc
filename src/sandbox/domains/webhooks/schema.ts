// Webhooks as the platform manages them: listed (their secrets for query_platform to refuse),
// created, changed and deleted, and their deliveries (webhookEvents) read and retried. Names,
// arguments and types as in the real schema; WebhookEvent without its logs.
export const webhooksTypeDefs = /* GraphQL */ `
"The kinds of event a webhook can subscribe to."
enum WebhookEventType {
  "Triggered when a contract is accepted by a worker."
  CONTRACT_ACCEPTED
  "Triggered when a hire ends."
  HIRE_ENDED
  "Triggered when a hire is cancelled."
  HIRE_CANCELLED
  "Triggered when a hire is terminated."
  HIRE_TERMINATED
  "Triggered when a payment request is approved."
  PAYMENT_REQUEST_APPROVED
  "Triggered when an invoice is created."
  INVOICE_CREATED
}

"A webhook: where the platform sends events for a company."
type Webhook {
  "The ID of the webhook."
  id: ID!
  "The title of the webhook."
  title: String!
  "The description of the webhook."
  description: String
  "The owner of the webhook (company name)."
  owner: String!
  "The URL of the webhook."
  url: String!
  "The secret of the webhook."
  secret: String
  "Whether the webhook is active or not."
  isActive: Boolean
  "The client ID of the webhook, when using OAuth."
  clientId: String
  "The client secret of the webhook, when using OAuth."
  clientSecret: String
  "The client URL of the webhook, when using OAuth."
  clientUrl: String
  "The event types that this webhook is subscribed to. If null, all event types; if empty, none."
  subscribedEvents: [WebhookEventType!]
  "The date and time that the webhook was created."
  createdAt: DateTime!
  "The date and time that the webhook was updated."
  updatedAt: DateTime!
}

type WebhookPaginator {
  "Pagination information about the list of items."
  paginatorInfo: PaginatorInfo!
  "A list of Webhook items."
  data: [Webhook!]!
}

"A scalar for representing JSON data."
scalar JSON

"The webhook event definition."
type WebhookEvent {
  "The ID of the webhook event."
  id: ID!
  "The unique key of the webhook event."
  key: String!
  "The ID of the webhook."
  webhookId: ID!
  "The webhook event identifer."
  event: String!
  "The webhook event description (human readable version of the \`event\` field)."
  description: String!
  "The latest status of the webhook sending attempts: pending, success, failed-N, failed-finally."
  status: String!
  "The webhook event payload."
  payload: JSON!
  "The date and time that the webhook event was created."
  createdAt: DateTime!
  "The date and time that the webhook event was updated."
  updatedAt: DateTime!
}

"A paginated list of WebhookEvent items."
type WebhookEventPaginator {
  "Pagination information about the list of items."
  paginatorInfo: PaginatorInfo!
  "A list of WebhookEvent items."
  data: [WebhookEvent!]!
}

"The input used for creating a webhook."
input CreateWebhookInput {
  "The title of the webhook."
  title: String!
  "The description of the webhook."
  description: String
  "The URL of the webhook."
  url: String!
  "The secret of the webhook. If using OAuth this is the client secret"
  secret: String
  "Whether the webhook is active or not."
  isActive: Boolean
  "The client ID of the webhook, when using OAuth."
  clientId: String
  "The client URL of the webhook, when using OAuth."
  clientUrl: String
  "The event types that this webhook should be subscribed to. If null or not provided, all; if empty, none."
  subscribedEvents: [WebhookEventType!]
  "The company that the webhook is for."
  company: ID!
}

"The input used for updating a webhook."
input UpdateWebhookInput {
  "The webhook to be updated."
  id: ID!
  "The title of the webhook."
  title: String!
  "The description of the webhook."
  description: String
  "The URL of the webhook."
  url: String!
  "The secret of the webhook. If you are not updating the secret, set it to null."
  secret: String
  "Whether the webhook is active or not."
  isActive: Boolean
  "The client ID of the webhook, when using OAuth."
  clientId: String
  "The client URL of the webhook, when using OAuth."
  clientUrl: String
  "The event types that this webhook should be subscribed to. If null, unchanged; if empty, none."
  subscribedEvents: [WebhookEventType!]
}

"The input for deleting a webhook."
input DeleteWebhookInput {
  "The ID of the webhook to be deleted."
  id: ID!
}

"The input for retrying a webhook event."
input RetryWebhookEventInput {
  "The ID of the webhook event to be retried."
  id: ID!
}

extend type Mutation {
  "Create a webhook. Only companies can create webhooks."
  createWebhook("The input required for creating a webhook." input: CreateWebhookInput!): Webhook!
  "Update a webhook."
  updateWebhook("The input required for updating a webhook." input: UpdateWebhookInput!): Webhook!
  "Delete a webhook."
  deleteWebhook("The input required for deleting a webhook." input: DeleteWebhookInput!): Webhook!
  "Retry a webhook event. Only companies can retry webhook events."
  retryWebhookEvent(
    "The input required for retrying a webhook event."
    input: RetryWebhookEventInput!
  ): WebhookEvent!
}

extend type Query {
  "Get a specific webhook event."
  webhookEvent("The ID of the webhook event." id: ID!): WebhookEvent
  "Get a list of webhook events. They are returned in descending order of creation."
  webhookEvents(
    "Filter the webhook events based on the ID of the webhook."
    webhookId: ID
    "Limits number of fetched items."
    first: Int! = 10
    "The offset from which items are returned."
    page: Int
  ): WebhookEventPaginator!
  "Get a specific webhook."
  webhook("The ID of the webhook." id: ID!): Webhook
  "Get a list of webhooks."
  webhooks(
    "Filter the webhooks based on one or more accounts. If none, all the caller's accounts."
    accounts: [ID!]
    "Limits number of fetched items."
    first: Int! = 10
    "The offset from which items are returned."
    page: Int
  ): WebhookPaginator!
}
`;
