import type { MigrationInterface } from 'typeorm';
import { Foundation1763780000000 } from './1763780000000-foundation';
import { Conversations1763780100000 } from './1763780100000-conversations';
import { ProviderKeysAndBilling1763780200000 } from './1763780200000-provider-keys-and-billing';
import { ModelConfigsAndPrompts1763780300000 } from './1763780300000-model-configs-and-prompts';
import { KnowledgeAndUploads1763780400000 } from './1763780400000-knowledge-and-uploads';
import { ApiKeys1763780500000 } from './1763780500000-api-keys';
import { KnowledgeSearchFunction1763780600000 } from './1763780600000-knowledge-search-function';
import { ConversationMessageCount1763780700000 } from './1763780700000-conversation-message-count';
import { KnowledgeSearchSmallDocuments1763820000000 } from './1763820000000-knowledge-search-small-documents';
import { ModelConfigControlMetrics1763830000000 } from './1763830000000-model-config-control-metrics';
import { ThemesAndHostedPage1764300000000 } from './1764300000000-themes-and-hosted-page';
import { Branding1764300100000 } from './1764300100000-branding';
import { CustomDomains1764300200000 } from './1764300200000-custom-domains';
import { Plugins1764100000000 } from './1764100000000-plugins';
import { EventOutboxAndWebhooks1764200000000 } from './1764200000000-event-outbox-and-webhooks';
import { NotificationsAndAudit1764200100000 } from './1764200100000-notifications-and-audit';
import { Marketplace1764400000000 } from './1764400000000-marketplace';
import { MarketplaceInstallations1764400100000 } from './1764400100000-marketplace-installations';
import { StripeBilling1764400200000 } from './1764400200000-stripe-billing';
import { AnalyticsRollup1764400400000 } from './1764400400000-analytics-rollup';
import { DataExport1764400500000 } from './1764400500000-data-export';
import { Workflows1764400700000 } from './1764400700000-workflows';
import { UsageHolds1764400831000 } from './1764400831000-usage-holds';
import { Teams1764400300000 } from './1764400300000-teams';
import { Identities1764400600000 } from './1764400600000-identities';
import { Sso1764400610000 } from './1764400610000-sso';
import { Tools1764500340000 } from './1764500340000-tools';
import { KnowledgeHybridSearch1764500350000 } from './1764500350000-knowledge-hybrid-search';
import { KnowledgeKeywordIndex1764500351000 } from './1764500351000-knowledge-keyword-index';
import { McpServers1764500360000 } from './1764500360000-mcp-servers';
import { McpHeadersSealed1764500370000 } from './1764500370000-mcp-headers-sealed';
import { ToolMessages1764500470000 } from './1764500470000-tool-messages';
import { KnowledgeWordCounts1764500480000 } from './1764500480000-knowledge-word-counts';
import { MarketplaceLicensesByHolder1764500490417 } from './1764500490417-marketplace-licenses-by-holder';
import { AuditApplication1764500501731 } from './1764500501731-audit-application';
import { PlatformSetup1764500520451 } from './1764500520451-platform-setup';
import { Studio1764500530000 } from './1764500530000-studio';
import { TraceSpans1764600100000 } from './1764600100000-trace-spans';
import { Experiments1764600700000 } from './1764600700000-experiments';
import { LogsAndAnnotations1764600200000 } from './1764600200000-logs-and-annotations';
import { Evaluations1764600600000 } from './1764600600000-evaluations';
import { ExternalUsers1764600800000 } from './1764600800000-external-users';
import { Connections1764600310000 } from './1764600310000-connections';
import { KnowledgeBases1764601000000 } from './1764601000000-knowledge-bases';
import { KnowledgeVersions1764600400000 } from './1764600400000-knowledge-versions';
import { LiveAnswerScores1764601200000 } from './1764601200000-live-answer-scores';
import { TeamConnections1764601100000 } from './1764601100000-team-connections';
import { TeamConnectionsHeldByTeam1764601600000 } from './1764601600000-team-connections-held-by-team';

/** Every migration, oldest first. A new one is one file and one line here. */
export const MIGRATIONS: Array<new () => MigrationInterface> = [
  Foundation1763780000000,
  Conversations1763780100000,
  ProviderKeysAndBilling1763780200000,
  ModelConfigsAndPrompts1763780300000,
  KnowledgeAndUploads1763780400000,
  ApiKeys1763780500000,
  KnowledgeSearchFunction1763780600000,
  ConversationMessageCount1763780700000,
  KnowledgeSearchSmallDocuments1763820000000,
  ModelConfigControlMetrics1763830000000,
  Plugins1764100000000,
  EventOutboxAndWebhooks1764200000000,
  NotificationsAndAudit1764200100000,
  ThemesAndHostedPage1764300000000,
  Branding1764300100000,
  CustomDomains1764300200000,
  Marketplace1764400000000,
  MarketplaceInstallations1764400100000,
  StripeBilling1764400200000,
  Teams1764400300000,
  AnalyticsRollup1764400400000,
  DataExport1764400500000,
  Identities1764400600000,
  Sso1764400610000,
  Workflows1764400700000,
  UsageHolds1764400831000,
  Tools1764500340000,
  KnowledgeHybridSearch1764500350000,
  KnowledgeKeywordIndex1764500351000,
  McpServers1764500360000,
  McpHeadersSealed1764500370000,
  ToolMessages1764500470000,
  KnowledgeWordCounts1764500480000,
  MarketplaceLicensesByHolder1764500490417,
  AuditApplication1764500501731,
  PlatformSetup1764500520451,
  Studio1764500530000,
  TraceSpans1764600100000,
  LogsAndAnnotations1764600200000,
  Connections1764600310000,
  KnowledgeVersions1764600400000,
  Evaluations1764600600000,
  Experiments1764600700000,
  ExternalUsers1764600800000,
  KnowledgeBases1764601000000,
  TeamConnections1764601100000,
  LiveAnswerScores1764601200000,
  TeamConnectionsHeldByTeam1764601600000,
];
