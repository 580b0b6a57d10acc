// Webhooks as the platform lists them: enough for query_platform to read them in the sandbox, and
// to show that their secrets are never read. Names, arguments and types as in the real schema.
export const webhooksTypeDefs = /* GraphQL */ `
"The kinds of event a webhook can subscribe to."
enum WebhookEventType {
  "Triggered when a contract is accepted by a worker."
  CONTRACT_ACCEPTED
  "Triggered when a hire ends."
  HIRE_ENDED
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

extend type Query {
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
