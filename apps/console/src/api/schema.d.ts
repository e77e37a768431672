/**
 * Generated from the core API's OpenAPI document (docs/openapi/core-api/*.json, served at /api/openapi.json)
 * by `npm run console:api-types`. Do not edit: change the document and regenerate; a test fails when stale.
 */
export interface paths {
    "/api/model-configs/{configId}/experiment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The A/B test's decision view
         * @description Per arm the estimate of the goal with an always-valid confidence interval from the mixture sequential probability ratio test (Johari et al. 2022), each challenger against the control, and the decision. Only answers since the test started count. Team role `read`; 404 when the config has no test.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    configId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The test with its decision */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AbTest"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /**
         * Set up or change the A/B test
         * @description A new test, a change of goal, evaluator, minimum effect or significance, or `restart` starts it anew (only answers from then on count). Team role `write`.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    configId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Required when the config has no test yet
                         * @enum {string}
                         */
                        goal?: "rating" | "thumbs_up_rate" | "cost_per_conversation" | "evaluator_score";
                        /**
                         * @description The evaluator scoring sampled live answers (goal evaluator_score)
                         * @example 0c1e5a3b-7d2f-4e8a-b6c4-2a9d0f1e3b5c
                         */
                        evaluatorId?: string | null;
                        /**
                         * @description The share of the arms' answers the evaluator scores (goal evaluator_score); 0.2 for a new test
                         * @example 0.2
                         */
                        sampleRate?: number;
                        /**
                         * @description At most this many answers sampled for scoring in any hour; 60 for a new test
                         * @example 60
                         */
                        samplesPerHour?: number;
                        /** @description Defaults: 0.3 stars, 0.05 of rated answers, 0.001 US dollars, 0.05 of score */
                        minimumEffect?: number;
                        /** @default 0.05 */
                        significance?: number;
                        /** @default false */
                        autoPromote?: boolean;
                        guardrails?: ("error_rate" | "cost")[];
                        restart?: boolean;
                    };
                };
            };
            responses: {
                /** @description The test with its decision */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AbTest"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/model-configs/{configId}/experiment/promote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Promote the A/B test's winner
         * @description The config takes the winning version's provider, model and settings (nothing changes when the control won), every version is switched off, and the test ends. 409 before a winner or after a promotion. Team role `write`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    configId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The test with its decision */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AbTest"];
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List accounts (admin)
         * @description Every account, newest first, with its plan. `search` matches part of the e-mail or display name (case-insensitive); `role` is the effective role. The total is in `X-Total-Count`. Each call is recorded in the audit log.
         */
        get: {
            parameters: {
                query?: {
                    search?: string;
                    role?: "admin" | "developer" | "user";
                    plan?: "free" | "starter" | "pro" | "enterprise";
                    disabled?: "true" | "false";
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of accounts */
                200: {
                    headers: {
                        /** @description Accounts matching the filters */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AdminUser"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/users/{id}/role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change an account's role (admin)
         * @description Applies from the account's next request. An admin cannot take the admin role from themselves (409). Audited.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        role: "admin" | "developer" | "user";
                    };
                };
            };
            responses: {
                /** @description The account */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AdminUser"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/users/{id}/disabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Disable or enable an account (admin)
         * @description A disabled account's access tokens and API keys are refused at once on every instance, its refresh tokens are revoked and it cannot sign in. Enabling it again lets it sign in afresh; its API keys work again. An admin cannot disable themselves (409). Audited.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        disabled: boolean;
                    };
                };
            };
            responses: {
                /** @description The account */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AdminUser"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/users/{id}/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a user's plan (admin)
         * @description Puts the user on a plan (status `active` unless given) and starts a new monthly billing period now, with fresh usage counters. Stands in for the payment processor.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        plan: "free" | "starter" | "pro" | "enterprise";
                        /**
                         * @default active
                         * @enum {string}
                         */
                        status?: "active" | "past_due" | "canceled" | "trialing" | "incomplete";
                    };
                };
            };
            responses: {
                /** @description The user's subscription */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Subscription"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Conversations, messages, tokens, estimated cost and error rate
         * @description Totals with breakdowns by day, provider and source. Figures of other instances arrive within their flush interval (ANALYTICS_FLUSH_MS).
         */
        get: {
            parameters: {
                query?: {
                    /** @description One of your applications; without it, all of them */
                    applicationId?: string;
                    /** @description First UTC day (default: 29 days before `to`) */
                    from?: string;
                    /** @description Last UTC day, inclusive (default: today); at most 366 days in all */
                    to?: string;
                    /** @description Without applicationId: a team's id (only its applications), `personal` (only your own) or absent (both) */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The figures */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AnalyticsOverview"];
                    };
                };
                /** @description A malformed date, from after to, or more than 366 days */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No valid access token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such application of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage by day, provider and source
         * @description Every counter per UTC day, provider and source.
         */
        get: {
            parameters: {
                query?: {
                    /** @description One of your applications; without it, all of them */
                    applicationId?: string;
                    /** @description First UTC day (default: 29 days before `to`) */
                    from?: string;
                    /** @description Last UTC day, inclusive (default: today); at most 366 days in all */
                    to?: string;
                    /** @description Without applicationId: a team's id (only its applications), `personal` (only your own) or absent (both) */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The figures */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AnalyticsUsage"];
                    };
                };
                /** @description A malformed date, from after to, or more than 366 days */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No valid access token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such application of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Conversation statistics: length, duration, ratings
         * @description Of the conversations opened in the period; duration runs from creation to last activity.
         */
        get: {
            parameters: {
                query?: {
                    /** @description One of your applications; without it, all of them */
                    applicationId?: string;
                    /** @description First UTC day (default: 29 days before `to`) */
                    from?: string;
                    /** @description Last UTC day, inclusive (default: today); at most 366 days in all */
                    to?: string;
                    /** @description Without applicationId: a team's id (only its applications), `personal` (only your own) or absent (both) */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The figures */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AnalyticsConversations"];
                    };
                };
                /** @description A malformed date, from after to, or more than 366 days */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No valid access token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such application of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/costs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Estimated cost by provider and model, own keys apart from platform keys
         * @description Costs are estimates from the price table (see pricesAsOf; operators may override it).
         */
        get: {
            parameters: {
                query?: {
                    /** @description One of your applications; without it, all of them */
                    applicationId?: string;
                    /** @description First UTC day (default: 29 days before `to`) */
                    from?: string;
                    /** @description Last UTC day, inclusive (default: today); at most 366 days in all */
                    to?: string;
                    /** @description Without applicationId: a team's id (only its applications), `personal` (only your own) or absent (both) */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The figures */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AnalyticsCosts"];
                    };
                };
                /** @description A malformed date, from after to, or more than 366 days */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No valid access token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such application of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/widget/loaded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The widget reports one page load
         * @description Called once per load by the embeddable widget; counts a widget_loaded event for the application.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description Required with a key that covers all of its owner's applications
                         */
                        applicationId?: string;
                    };
                };
            };
            responses: {
                /** @description Counted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description applicationId missing or malformed */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No valid API key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The key does not cover the application, or the page's origin is not allowed */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The key's rate limit */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/system-health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Platform status and each component's (admins)
         * @description down when the database is down; degraded when any other component is down or degraded; healthy otherwise. not_configured and unknown components count as neither.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The report */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SystemHealth"];
                    };
                };
                /** @description No valid access token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Request rate and latency per route, chat turns, provider errors and job queue depth, in the Prometheus text format. Requires `Authorization: Bearer <METRICS_TOKEN>`; without METRICS_TOKEN set it answers 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Metrics */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": string;
                    };
                };
                /** @description Missing or wrong metrics token */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Metrics are not enabled */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your API keys, newest first (prefix and last four characters only) */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    /** @description A team's id (only its resources), `personal` (only your own) or absent (both) */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Keys */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiKey"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Create an API key for the public API and the widget
         * @description Scoped to one of your applications (`applicationId`) or, when it is absent or null, to all of them. The raw key is returned once, in this answer. The plan's API-key limit applies (402).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /**
                         * @default API key
                         * @example Support Bot
                         */
                        name?: string;
                        /** Format: uuid */
                        applicationId?: string | null;
                        /**
                         * @description Requests per minute
                         * @default 60
                         */
                        rateLimit?: number;
                    };
                };
            };
            responses: {
                /** @description Created (Cache-Control: no-store) */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreatedApiKey"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                402: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an API key (its conversations stay, readable from the dashboard) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke an API key: listed as inactive, refused by the public API (at once on this instance, within 5 s on others) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The revoked key */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiKey"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{id}/widget-preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a widget preview session
         * @description For the console's widget preview: a short-lived token with which the real widget, in a sandboxed frame of the console, chats with the application through one of its API keys, without the application listing the console's origin. Needs `write` on the application (404 for an application you cannot see, 403 for a role that cannot write); 409 when the application has no active API key.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Issued (Cache-Control: no-store) */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WidgetPreviewSession"];
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your applications and your teams', paged */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    /** @description A team's id (only its applications), `personal` (only your own) or absent (both) */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Applications */
                200: {
                    headers: {
                        /** @description How many there are in all */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Application"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Create an application
         * @description Creates your own application, or with `teamId` one held by that team from the start, in one step: you need the Admin role or above in the team (a team you are not in answers 404, a lower role 403 with the reason), the team's Owner becomes its owner and the Owner's plan decides whether there is room (402 otherwise).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Support Bot */
                        name?: string;
                        /** @example Answers questions about orders, shipping and returns */
                        description?: string;
                        /** @example support-bot */
                        slug?: string;
                        allowedOrigins?: string[];
                        /**
                         * Format: uuid
                         * @description The team to create the application in; absent for your own application. Its Owner becomes the application's owner and their plan's application limit applies.
                         * @example 7c9e6679-7425-40de-944b-e07fc1f90ae7
                         */
                        teamId?: string;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Application"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                402: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One application */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Application */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Application"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /** Update an application */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Support Bot */
                        name?: string;
                        /** @example Answers questions about orders, shipping and returns */
                        description?: string;
                        /** @example support-bot */
                        slug?: string;
                        allowedOrigins?: string[];
                        /** @description turn the hosted chat page on or off */
                        hostedPage?: {
                            enabled?: boolean;
                        };
                        /** @description How the knowledge base is searched for chats and, by default, on GET /api/knowledge/search */
                        retrieval?: {
                            /**
                             * @default hybrid
                             * @enum {string}
                             */
                            mode?: "hybrid" | "vector" | "keyword";
                        };
                    };
                };
            };
            responses: {
                /** @description Application */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Application"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        post?: never;
        /** Delete an application */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{id}/theme": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Select a theme */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example dark */
                        themeId: string;
                    };
                };
            };
            responses: {
                /** @description Application */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Application"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{id}/theme/customize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Customize the theme
         * @description Any section and field of a theme (colors: 14 names, typography: 4, layout: 5, custom); merged into the stored customization, and the theme it makes with the selected one must be valid (400 naming the field).
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        colors?: {
                            [key: string]: string;
                        };
                        typography?: {
                            /** @example Inter, system-ui, sans-serif */
                            fontFamily?: string;
                            /** @example 15px */
                            fontSize?: string;
                        };
                        layout?: {
                            /** @enum {unknown} */
                            sidebarPosition?: "left" | "right";
                            /** @example 420px */
                            maxWidth?: string;
                        };
                        /** @description custom CSS variables (--ap-custom-<name>) */
                        custom?: {
                            [key: string]: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Application */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Application"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{id}/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move an application into a team
         * @description Needs the right to delete the application (its owner, or the Owner of the team holding it) and the Admin role or above in the target team. Everything under it moves along; the team's Owner becomes its owner (their plan and quota apply): a move that would take the Owner past their plan's application limit is refused with 402 and nothing moves, as a creation in the team would be. An application the Owner already holds is not counted twice.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @example 7c9e6679-7425-40de-944b-e07fc1f90ae7
                         */
                        teamId: string;
                    };
                };
            };
            responses: {
                /** @description Moved */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Application"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                402: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Audit records, newest first (read only)
         * @description You see your own records, a team owner or admin their teams', a platform admin everyone's. `action` matches an action or a family (`api_key`).
         */
        get: {
            parameters: {
                query?: {
                    action?: string;
                    resource?: string;
                    user?: string;
                    /** @description Only the records of this application (its creation, settings, model configs, prompts, tools, MCP servers, knowledge, keys, webhooks, domains, branding, plugins, move and deletion) */
                    application?: string;
                    from?: string;
                    to?: string;
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Records */
                200: {
                    headers: {
                        /** @description Items in all pages */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AuditRecord"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an account
         * @description An ordinary account (role developer) on the install's default plan (DEFAULT_PLAN). The platform's first admin comes from the setup link the start log prints (`POST /api/auth/setup`) or from ADMIN_EMAILS.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description `cookie` (the console): the refresh token is set as the HttpOnly, SameSite=Strict cookie `ap_refresh` (path /api/auth, Secure over https) and left out of the body */
                    "X-AP-Session"?: "cookie";
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example ada@example.com */
                        email: string;
                        /** @example correct horse battery staple */
                        password: string;
                        /** @example Ada Lovelace */
                        displayName: string;
                    };
                };
            };
            responses: {
                /** @description Signed in */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Session"];
                    };
                };
                400: components["responses"]["Error"];
                409: components["responses"]["Error"];
                429: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create the platform's admin with the setup link
         * @description A fresh install has an operator. While the platform has no admin (no account stored as admin, none of ADMIN_EMAILS registered), every start prints one setup link in its log: the console's `/setup?token=…` page, with a one-time token valid 24 hours. Only the token's digest is stored, so each start replaces the previous link. This call creates the account that becomes the platform's admin and signs it in; the token works once (a second use, an expired or replaced token is a 400 naming `token`), and an e-mail already taken (409) leaves the link usable. Rate-limited per client address like sign-up. Accounts made by `POST /api/auth/register` are ordinary users.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description `cookie` (the console): the refresh token is set as the HttpOnly, SameSite=Strict cookie `ap_refresh` (path /api/auth, Secure over https) and left out of the body */
                    "X-AP-Session"?: "cookie";
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The one-time token of the setup link in the start log
                         * @example q1Z4yT8xW2vU6sR0pO3nM7lK5jI9hG1fE4dC8bA2zY0
                         */
                        token: string;
                        /** @example ada@example.com */
                        email: string;
                        /** @example correct horse battery staple */
                        password: string;
                        /** @example Ada Lovelace */
                        displayName: string;
                    };
                };
            };
            responses: {
                /** @description The admin account, signed in */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Session"];
                    };
                };
                400: components["responses"]["Error"];
                409: components["responses"]["Error"];
                429: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description `cookie` (the console): the refresh token is set as the HttpOnly, SameSite=Strict cookie `ap_refresh` (path /api/auth, Secure over https) and left out of the body */
                    "X-AP-Session"?: "cookie";
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example ada@example.com */
                        email: string;
                        /** @example correct horse battery staple */
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Signed in */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Session"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                429: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Trade a refresh token (once) for a new pair
         * @description Bearer clients send `{ refresh_token }` and get a new pair. The console sends no body token: its `ap_refresh` cookie together with the header `X-AP-Session: cookie` (required with the cookie, as CSRF proof; 403 without it); the cookie is rotated and the answer holds only `access_token`. A spent token revokes its whole family.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description `cookie`: refresh from the `ap_refresh` cookie (required whenever the cookie is used) */
                    "X-AP-Session"?: "cookie";
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /** @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxNmZkMjcwNiIsImtpbmQiOiJyZWZyZXNoIn0.c2lnbmF0dXJl */
                        refresh_token?: string;
                    };
                };
            };
            responses: {
                /** @description New tokens */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxNmZkMjcwNiJ9.Qm9yZWQ_c2lnbmF0dXJl */
                            access_token?: string;
                            /** @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxNmZkMjcwNiIsImtpbmQiOiJyZWZyZXNoIn0.c2lnbmF0dXJl */
                            refresh_token?: string;
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current user */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description User */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Enabled OAuth providers */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description List */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            id?: "github" | "google";
                            /** @example GitHub */
                            name?: string;
                            /**
                             * @description Send the browser here to sign in
                             * @example /api/auth/github
                             */
                            authorizeUrl?: string;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/change-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change password; signs out every session */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example correct horse battery staple */
                        currentPassword: string;
                        /** @example a longer passphrase for 2027 */
                        newPassword: string;
                    };
                };
            };
            responses: {
                /** @description Changed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password-reset/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a reset token (same answer whether or not the account exists) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example ada@example.com */
                        email: string;
                        /**
                         * @description an application the account owns: the mail carries its e-mail branding (sender name, reply-to, logo, footer)
                         * @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f
                         */
                        applicationId?: string;
                    };
                };
            };
            responses: {
                /** @description Accepted */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @example How many days do I have to return a widget? */
                            message?: string;
                        };
                    };
                };
                400: components["responses"]["Error"];
                429: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with a reset token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Jx3vQ9kL2mN8pR5tW7yZ1aB4cD6eF0gH */
                        token: string;
                        /** @example correct horse battery staple */
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Changed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                        };
                    };
                };
                400: components["responses"]["Error"];
                429: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign out: revoke the refresh token's whole family and clear the console's cookie
         * @description The token comes from the body (`{ refresh_token }`) or, for the console, from the `ap_refresh` cookie with the header `X-AP-Session: cookie`. Idempotent: an unknown or invalid token revokes nothing and still answers 204.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description `cookie`: sign out the cookie session */
                    "X-AP-Session"?: "cookie";
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /** @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxNmZkMjcwNiIsImtpbmQiOiJyZWZyZXNoIn0.c2lnbmF0dXJl */
                        refresh_token?: string;
                    };
                };
            };
            responses: {
                /** @description Signed out; the cookie is cleared */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["Error"];
                403: components["responses"]["Error"];
                429: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The plans on offer
         * @description Prices, included tokens and overage rates, and each plan's limits (null = unlimited). Public. The defaults are below; a self-hosted install may set its own plans with `PLANS_FILE`, and this answer shows the plans it enforces.
         *
         *     | plan | platform tokens / month | overage per 1K | applications | messages / month | API keys |
         *     |---|---|---|---|---|---|
         *     | free | none (own keys only) | — | 3 | 1,000 | 2 |
         *     | starter | 100,000 | $0.001 | 10 | 10,000 | 10 |
         *     | pro | 500,000 | $0.0008 | 50 | 100,000 | 50 |
         *     | enterprise | unlimited | — | unlimited | unlimited | unlimited |
         *
         *     Own keys bypass the token quota and are never billed; the message limit counts every chat message. Overage is billed only while the subscription is `active`: trialing or past-due subscriptions stop at the included tokens (402), canceled or incomplete ones fall back to Free. Billing periods are one month long, counted from registration or the last plan change, and follow Stripe's billing cycle for paid subscriptions (a renewal starts a new period).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Plans, Free first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Plan"][];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's plan, billing period, limits and usage
         * @description Every user has a subscription: the install's default plan (DEFAULT_PLAN, Free unless set) from registration until they subscribe through Stripe (or an admin sets another plan). The platform's admins are never held to a plan: their limits are all null (`exempt`). `usage.overageTokens` and `overageCostUsd` are the overage of the period so far, reported to Stripe hourly.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Usage of the current period */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BillingUsage"];
                    };
                };
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's subscription
         * @description Plan, status (it follows Stripe's events), the plan whose rules apply now, the current billing period, and whether the user has a Stripe customer and subscription. Answers without Stripe configured too.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The subscription */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Subscription"];
                    };
                };
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/subscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a paid plan: a Stripe Checkout Session
         * @description Answers the URL of a Checkout Session for the plan (with the metered overage price on Starter and Pro). Nothing changes until Stripe reports the checkout completed through the webhook. A user who already pays changes plan in the customer portal (409).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        plan: "starter" | "pro" | "enterprise";
                    };
                };
            };
            responses: {
                /** @description Checkout Session */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HostedSession"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                409: components["responses"]["Error"];
                502: components["responses"]["Error"];
                /** @description Payments are not configured on this install (STRIPE_SECRET_KEY unset) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open the Stripe customer portal
         * @description Payment method, plan changes, cancellation and invoices, on Stripe's hosted portal. 409 for a user who never subscribed (no Stripe customer yet).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Portal session */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: uri
                             * @example https://billing.stripe.com/p/session/test_abc
                             */
                            url?: string;
                        };
                    };
                };
                401: components["responses"]["Error"];
                409: components["responses"]["Error"];
                502: components["responses"]["Error"];
                /** @description Payments are not configured on this install (STRIPE_SECRET_KEY unset) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's invoices, from Stripe
         * @description Newest first, paged with Stripe's cursor: pass the previous page's nextCursor as startingAfter. Empty for a user without a Stripe customer.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    startingAfter?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of invoices */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvoicePage"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                502: components["responses"]["Error"];
                /** @description Payments are not configured on this install (STRIPE_SECRET_KEY unset) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/licenses/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Buy a license for a paid marketplace item: a Stripe Checkout Session
         * @description The license is issued when Stripe reports the checkout completed (the webhook), never before. 404 for an item that does not exist or is not for sale; 409 for the item's own author or a free item.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example a3c1e2d4-5b6f-4a7b-8c9d-0e1f2a3b4c5d */
                        marketplacePluginId: string;
                    };
                };
            };
            responses: {
                /** @description Checkout Session */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HostedSession"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                502: components["responses"]["Error"];
                /** @description Payments are not configured on this install (STRIPE_SECRET_KEY unset) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stripe's webhook endpoint
         * @description For Stripe only. The Stripe-Signature header is verified on the exact body (300 s tolerance); a bad or stale signature is a 400. Handled: checkout.session.completed, customer.subscription.updated, customer.subscription.deleted, invoice.payment_failed; other types and events of unknown customers answer 200 and change nothing. Each event id is applied once, also across instances; an event older than the last one applied to the subscription is recorded and skipped.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    "Stripe-Signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example evt_1QabcdEFGhijKL */
                        id?: string;
                        /** @example checkout.session.completed */
                        type?: string;
                        created?: number;
                    };
                };
            };
            responses: {
                /** @description Received */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookOutcome"];
                    };
                };
                400: components["responses"]["Error"];
                502: components["responses"]["Error"];
                /** @description Payments are not configured on this install (STRIPE_SECRET_KEY unset) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/branding/{appId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An application's branding (defaults until saved) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Branding */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Branding"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /** Change the given sections of the branding; the others are kept; an empty string clears a field */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description primary, secondary, accent, background, text */
                        colors?: {
                            [key: string]: string;
                        };
                        typography?: {
                            /** @example Inter, system-ui, sans-serif */
                            bodyFont?: string;
                            /** @example Inter, system-ui, sans-serif */
                            headingFont?: string;
                        };
                        widget?: {
                            /** @enum {string} */
                            position?: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                            /** @example 12px */
                            borderRadius?: string;
                            /** @example Hi! How can we help? */
                            welcomeMessage?: string;
                            /** @example Ask a question… */
                            placeholder?: string;
                        };
                        email?: {
                            /** @example Acme Support */
                            fromName?: string;
                            /** Format: email */
                            replyTo?: string;
                            /**
                             * @description https only
                             * @example https://hooks.example.com/platform
                             */
                            headerLogoUrl?: string;
                            /** @example Acme Inc., 1 Main Street, Springfield */
                            footerText?: string;
                        };
                        /**
                         * @description at most 5 KB; no @import, url() other than https: or data:image/, expression(, javascript:, behavior, </style
                         * @example .message { letter-spacing: .01em }
                         */
                        customCss?: string;
                        /** @description false needs a paid plan (402 on Free) */
                        showAttribution?: boolean;
                    };
                };
            };
            responses: {
                /** @description Branding */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Branding"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                402: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's connections */
        get: {
            parameters: {
                query?: {
                    /** @description List the team's connections instead of your own (any member may) */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The caller's connections, by name */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Connection"][];
                        };
                    };
                };
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Save a connection
         * @description The base URL must pass the connections' address rules (CONNECTIONS_ALLOW_HTTP, CONNECTIONS_ALLOWED_PRIVATE_CIDRS): a refused address is a 400 naming the rule. Without typed models the endpoint's /models is read (at most 1,000 kept); an endpoint that does not answer is saved with no models.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description Save the connection for this team (its Admins and Owner may); your own otherwise
                         * @example 3f1c2b7e-8a5d-4c2e-9b1a-6d7e8f9a0b1c
                         */
                        teamId?: string;
                        /**
                         * @description How model configs, the studio and the playground name it as their provider (not a built-in provider id)
                         * @example local-ollama
                         */
                        name: string;
                        /**
                         * @default openai_compatible
                         * @enum {string}
                         */
                        kind?: "openai_compatible" | "anthropic_compatible" | "hugging_face_compatible";
                        /**
                         * @description Without credentials, query or fragment; checked against the connections' address rules on save and on every request
                         * @example http://127.0.0.1:11434/v1
                         */
                        baseUrl: string;
                        /**
                         * @description Sent as a bearer token; stored sealed, never returned (null or empty removes it)
                         * @example sk-or-v1-2vQ8wX4yZ6aB1cD3
                         */
                        apiKey?: string | null;
                        /** @description Extra headers sent with every request; stored sealed, only their names are returned */
                        headers?: {
                            [key: string]: string;
                        } | null;
                        /** @description Typed model ids; without them the endpoint's /models is read on create */
                        models?: string[];
                    };
                };
            };
            responses: {
                /** @description Saved */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Connection"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a connection */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The connection's id; another owner's connection is a 404. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The connection */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Connection"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        /** Delete a connection */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The connection's id; another owner's connection is a 404. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a connection
         * @description Fields left out are kept; `headers` replaces the whole set; a new base URL is checked again.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The connection's id; another owner's connection is a 404. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description How model configs, the studio and the playground name it as their provider (not a built-in provider id)
                         * @example local-ollama
                         */
                        name?: string;
                        /**
                         * @default openai_compatible
                         * @enum {string}
                         */
                        kind?: "openai_compatible" | "anthropic_compatible" | "hugging_face_compatible";
                        /**
                         * @description Without credentials, query or fragment; checked against the connections' address rules on save and on every request
                         * @example http://127.0.0.1:11434/v1
                         */
                        baseUrl?: string;
                        /**
                         * @description Sent as a bearer token; stored sealed, never returned (null or empty removes it)
                         * @example sk-or-v1-2vQ8wX4yZ6aB1cD3
                         */
                        apiKey?: string | null;
                        /** @description Extra headers sent with every request; stored sealed, only their names are returned */
                        headers?: {
                            [key: string]: string;
                        } | null;
                        /** @description Typed model ids; without them the endpoint's /models is read on create */
                        models?: string[];
                    };
                };
            };
            responses: {
                /** @description Changed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Connection"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        trace?: never;
    };
    "/api/connections/{id}/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Discover the connection's models again
         * @description Reads the endpoint's /models and keeps at most 1,000 well-formed ids; an answer past 10 MB is cut.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The connection's id; another owner's connection is a 404. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The connection with its models */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Connection"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                424: components["responses"]["Error"];
                502: components["responses"]["Error"];
                504: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connections/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test a connection
         * @description Calls the endpoint's model listing; a connection that does not answer is a 200 with ok false.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The connection's id; another owner's connection is a 404. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description What the test found */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ConnectionTest"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Conversations of your applications */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    applicationId?: string;
                    /** @description A team's id (only its resources), `personal` (only your own) or absent (both) */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Page */
                200: {
                    headers: {
                        /** @description How many there are in all */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Conversation"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        /** Start a conversation */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
                        applicationId: string;
                        /** @example Returns question */
                        title?: string;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Conversation"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A conversation with its messages */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Conversation */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ConversationWithMessages"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        /** Archive a conversation */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Archived */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        /** Rename a conversation */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The new title (trimmed).
                         * @example Refund for order 123456
                         */
                        title: string;
                    };
                };
            };
            responses: {
                /** @description Renamed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Conversation"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        trace?: never;
    };
    "/api/conversations/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a message and get the whole answer (knowledge documents are used automatically) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["MessageRequest"];
                };
            };
            responses: {
                /** @description Answer */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Answer"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                402: components["responses"]["Error"];
                404: components["responses"]["Error"];
                424: components["responses"]["FailedDependency"];
                429: components["responses"]["Error"];
                502: components["responses"]["Error"];
                503: components["responses"]["Error"];
                504: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a message and stream the answer */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["MessageRequest"];
                };
            };
            responses: {
                /** @description Server-Sent Events */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": components["schemas"]["StreamEvent"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                402: components["responses"]["Error"];
                404: components["responses"]["Error"];
                424: components["responses"]["FailedDependency"];
                429: components["responses"]["Error"];
                502: components["responses"]["Error"];
                503: components["responses"]["Error"];
                504: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The providers and their catalogued models, for picking a chat's provider and model
         * @description Each provider with its default model, its catalogued models (with their limits), whether the platform holds a key of its own for it (platform keys serve paid plans) and whether it accepts models outside the catalogue.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The catalogue */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProviderInfo"][];
                    };
                };
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/custom-domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's custom domains */
        get: {
            parameters: {
                query?: {
                    /** @description from 1 */
                    page?: string;
                    /** @description 1-100, default 20 */
                    limit?: string;
                    /** @description A team's id (only its resources), `personal` (only your own) or absent (both) */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Domains (X-Total-Count) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CustomDomain"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        /** Claim a domain for an application: pending, with the DNS records to create */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example chat.example.com */
                        domain: string;
                        /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
                        applicationId: string;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CustomDomain"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/custom-domains/tls-allowed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reverse proxy's on-demand TLS ask: 200 only for names this platform serves */
        get: {
            parameters: {
                query: {
                    domain: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Allowed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/custom-domains/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One custom domain */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Domain */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CustomDomain"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /** Settings: redirectWww, forceHttps, customHeaders (replaced whole; no hop-by-hop, cookie or security headers) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        redirectWww?: boolean;
                        forceHttps?: boolean;
                        customHeaders?: {
                            [key: string]: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Domain */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CustomDomain"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        /** Remove a custom domain (it stops routing at once) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/custom-domains/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Look the DNS records up: verified, or failed with the reason */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Domain */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CustomDomain"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/custom-domains/{id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Activate a verified domain (turns the hosted page on) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Domain */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CustomDomain"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/data-export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your exports, newest first
         * @description Every export you requested that has not been deleted yet, each as `GET /api/data-export/{id}` answers it (never the file or anything secret): poll while any is `pending` or `running`, download the `ready` ones from `downloadUrl`. An expired export stays listed, with `downloadUrl` null, until the hourly sweep deletes it. Only your own exports: another user's are never listed. Paged by `page` and `limit` (default 20, at most 100; anything else is a 400); the total is in `X-Total-Count`.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Exports */
                200: {
                    headers: {
                        /** @description Items in all pages */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DataExport"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Export your data
         * @description Starts an export as a background job and answers at once (202). `all` holds your applications with their model configs, prompt templates and conversations, and analytics (message counts and tokens per conversation and per day, derived from the stored messages). `json` is one document in the shape `POST /api/data-import` takes; `csv` is a ZIP with one CSV table per kind of record (cells that a spreadsheet would run as a formula start with `'`). An export never holds passwords, API keys, provider keys, webhook secrets or billing data. One export at a time per account (409 while one is being prepared). Audited.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /**
                         * @default all
                         * @enum {string}
                         */
                        resources?: "all" | "applications" | "conversations" | "analytics";
                        /**
                         * @default json
                         * @enum {string}
                         */
                        format?: "json" | "csv";
                    };
                };
            };
            responses: {
                /** @description The export, pending */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DataExport"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/data-export/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An export's status
         * @description Poll until `status` is `ready` (then `downloadUrl` is set) or `failed`. Someone else's export is a 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The export */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DataExport"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/data-export/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an export
         * @description The file, as an attachment, for the export's owner only and for 24 hours from the request; expired exports are deleted. Audited.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The export file */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                        "application/zip": string;
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/data-import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import applications
         * @description Imports applications with their model configs (and their A/B versions), prompt templates and conversations with every kind of message (the JSON export's shape, any version up to 2: other top-level fields are ignored). Each application is checked by the rules of its own endpoints and stored in one transaction, and answered in `results` as `created`, `skipped` (its clientId was imported before) or `failed` with the reason (nothing of it stored); one application failing does not stop the others. Inside an application, a bad model config (with its versions), prompt template or conversation (with its messages: one bad message refuses its conversation) is left out and listed in `refused` with its reason, and the rest of the application is created. Your plan's application limit applies per application. Requests are limited to 1 MB: split larger imports, re-sending a record is harmless. Audited.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description As an export writes it; not required.
                         * @example ai-platform-export
                         */
                        format?: string;
                        /**
                         * @description The document version an export writes (2; files of version 1 import as they are). A newer version than this platform reads is refused with 400.
                         * @example 2
                         */
                        version?: number;
                        applications: components["schemas"]["ImportedApplication"][];
                    };
                };
            };
            responses: {
                /** @description One result per record */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            results?: {
                                /** @example 0 */
                                index: number;
                                /** @enum {string} */
                                status: "created" | "skipped" | "failed";
                                /** Format: uuid */
                                applicationId?: string;
                                /**
                                 * @description Why the application was refused as a whole (nothing of it was stored).
                                 * @example modelConfigs[0].provider must be one of provider_a, provider_b, provider_c, provider_d
                                 */
                                error?: string;
                                /** @description On a created application: the items left out of it, each with its reason (absent when none was). */
                                refused?: {
                                    /**
                                     * @description The place of the item in the record: `modelConfigs[i]` (with its versions), `promptTemplates[i]` or `conversations[i]` (with its messages).
                                     * @example conversations[3]
                                     */
                                    item: string;
                                    /** @example messages[1].role: role must be user, assistant or tool */
                                    error: string;
                                }[];
                            }[];
                            /** @example 2 */
                            created?: number;
                            /** @example 0 */
                            skipped?: number;
                            /** @example 1 */
                            failed?: number;
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                413: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/datasets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the application's evaluation datasets */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Datasets */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationDataset"][];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /** Create an evaluation dataset */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Password questions */
                        name: string;
                        /** @example Questions customers ask about passwords */
                        description?: string;
                    };
                };
            };
            responses: {
                /** @description Dataset */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationDataset"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/datasets/{datasetId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A dataset with its current items */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Dataset id */
                    datasetId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Dataset */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationDataset"] & {
                            items?: components["schemas"]["EvaluationItem"][];
                        };
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /** Rename or describe a dataset */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Dataset id */
                    datasetId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Password questions */
                        name?: string;
                        /** @example Questions customers ask about passwords */
                        description?: string;
                    };
                };
            };
            responses: {
                /** @description Dataset */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationDataset"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        /** Delete a dataset and its runs */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Dataset id */
                    datasetId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/datasets/{datasetId}/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add items to a dataset (one new version)
         * @description At most 500 items a request and 10000 in a dataset.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Dataset id */
                    datasetId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        items: components["schemas"]["EvaluationItemNew"][];
                    };
                };
            };
            responses: {
                /** @description The dataset and the items added */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationDataset"] & {
                            added?: components["schemas"]["EvaluationItem"][];
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/datasets/{datasetId}/items/from-annotations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add annotations to a dataset (one new version)
         * @description Each annotation of the application becomes an item: its question the input, its answer the expected answer, tagged `annotation`. All or none: an annotation that is not the application’s answers 404 and nothing is added.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Dataset id */
                    datasetId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        annotationIds: string[];
                    };
                };
            };
            responses: {
                /** @description The dataset and the items added */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationDataset"] & {
                            added?: components["schemas"]["EvaluationItem"][];
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/datasets/{datasetId}/items/from-messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add logged answers to a dataset (one new version)
         * @description Each answer of the application’s conversations becomes an item: the question before it the input, the answer given the expected answer (a regression check), tagged `log`. All or none: an answer that is not the application’s answers 404 and nothing is added.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Dataset id */
                    datasetId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        messageIds: string[];
                    };
                };
            };
            responses: {
                /** @description The dataset and the items added */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationDataset"] & {
                            added?: components["schemas"]["EvaluationItem"][];
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/datasets/{datasetId}/items/{itemId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove an item from the next version of a dataset
         * @description Earlier versions, and the runs that used them, keep it.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Dataset id */
                    datasetId: string;
                    /** @description Item id */
                    itemId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/datasets/{datasetId}/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import items from a CSV or JSON Lines file (one new version)
         * @description CSV: a header row with an input column (or message, question), and optionally expected (or answer), tags (comma-separated), variables and history (JSON), var:<name>. JSON Lines: one object a line with the same keys. At most 10 MB and 10000 items in the dataset: past either the file is refused with 413, and nothing is added. A bad row answers 400 naming it.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Dataset id */
                    datasetId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /** Format: binary */
                        file: string;
                        /**
                         * @description Else taken from the file name
                         * @enum {string}
                         */
                        format?: "csv" | "jsonl";
                    };
                };
            };
            responses: {
                /** @description The dataset and the items added */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationDataset"] & {
                            added?: components["schemas"]["EvaluationItem"][];
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                413: components["responses"]["Error"];
                415: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/datasets/{datasetId}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export a dataset's current items as CSV or JSON Lines */
        get: {
            parameters: {
                query?: {
                    format?: "csv" | "jsonl";
                };
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Dataset id */
                    datasetId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The file */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": string;
                        "application/x-ndjson": string;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/evaluators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Evaluators kept for A/B tests that score live answers */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Evaluators, oldest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SavedEvaluator"][];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Keep an evaluator for A/B tests that score live answers
         * @description The fields of a run's evaluator. Live answers have no expected answer, so exact and similarity cannot be kept. At most 50 per application.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["Evaluator"];
                };
            };
            responses: {
                /** @description The evaluator */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SavedEvaluator"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/evaluators/{evaluatorId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a kept evaluator (a test scored by it gets no more scores) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Evaluator id */
                    evaluatorId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/evaluations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the application's evaluation runs (latest 50) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Runs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationRun"][];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Start an evaluation run (a session, or an API key for CI)
         * @description Runs the dataset's current version against each target with the evaluators, in the background: poll GET /api/applications/{appId}/evaluations/{runId}. With passThreshold the run's verdict is the gate CI reads. Each answer counts against the plan like a chat turn (own provider keys are not metered). An API key must cover the application.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: uuid */
                        datasetId: string;
                        /** @example Password questions */
                        name?: string;
                        targets: components["schemas"]["EvaluationTarget"][];
                        evaluators: components["schemas"]["Evaluator"][];
                        /** @example 0.9 */
                        passThreshold?: number | null;
                        /** @default 2 */
                        concurrency?: number;
                    };
                };
            };
            responses: {
                /** @description The run, started */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationRun"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                429: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/evaluations/compare": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compare two runs, or two targets of one run, item by item
         * @description Lists the items whose verdict changed between A and B. Without runB, targets of runA are compared (targetB defaults to 1).
         */
        get: {
            parameters: {
                query: {
                    runA: string;
                    runB?: string;
                    targetA?: number;
                    targetB?: number;
                };
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Comparison */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationComparison"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/evaluations/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An evaluation run: progress, figures per target and the gate's verdict (a session, or an API key for CI) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Evaluation run id */
                    runId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Run */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationRun"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                429: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/evaluations/{runId}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A run's results per item and target */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Evaluation run id */
                    runId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Results */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationResult"][];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/evaluations/{runId}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export a run's results per item, target and evaluator as CSV or JSON
         * @description One row per item, target and evaluator (one without an evaluator for an item that failed): the item's number, question and expected answer, the target's label, the state, the answer, the evaluator's name, type, score, pass and reason, latency, tokens, cost and error. In CSV, text a spreadsheet would read as a formula starts with a quote mark.
         */
        get: {
            parameters: {
                query?: {
                    format?: "csv" | "json";
                };
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Run id */
                    runId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The file */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": string;
                        "application/json": {
                            /** Format: uuid */
                            runId: string;
                            /** @example Before the new prompt */
                            name: string;
                            datasetVersion: number;
                            /** @enum {string} */
                            status: "running" | "completed" | "cancelled" | "failed";
                            rows: {
                                item?: number;
                                /** @example How do I reset my password? */
                                input?: string;
                                /** @example Open Settings */
                                expected?: string | null;
                                /** @example v2 · short */
                                target?: string;
                                /** @enum {string} */
                                state?: "pending" | "running" | "done" | "failed" | "cancelled";
                                /** @example Open Settings, then Security. */
                                answer?: string | null;
                                /** @example Contains */
                                evaluator?: string | null;
                                /** @example contains */
                                type?: string | null;
                                score?: number | null;
                                passed?: boolean | null;
                                /** @example Contains "Settings" */
                                reason?: string | null;
                                latencyMs?: number | null;
                                promptTokens?: number | null;
                                completionTokens?: number | null;
                                cost?: number | null;
                                /** @example null */
                                error?: string | null;
                            }[];
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/evaluations/{runId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a run: items not answered yet are not answered */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Evaluation run id */
                    runId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Run */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EvaluationRun"];
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Service health */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Up or degraded */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Health"];
                    };
                };
                /** @description Down */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Health"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OpenAPI document */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Swagger UI */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description HTML page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/init.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Swagger UI start-up script */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description JavaScript */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/{asset}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Swagger UI assets */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    asset: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Asset */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/favicon.ico": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The platform's icon (browsers ask for it) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Icon */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "image/x-icon": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chat/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The hosted chat page (HTML, strict CSP); a 404 page when off or unknown */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description Chat not found page */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/hosted/{slug}/app": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The application as the hosted page shows it */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Application */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PublicApplication"];
                    };
                };
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/hosted/{slug}/chat/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A visitor's message, streamed (SSE); X-Conversation-Id and X-Conversation-Token headers; send the token back to continue */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "X-Conversation-Token"?: string;
                };
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example How many days do I have to return a widget? */
                        message: string;
                        /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
                        conversationId?: string;
                    };
                };
            };
            responses: {
                /** @description SSE stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                400: components["responses"]["Error"];
                402: components["responses"]["Error"];
                404: components["responses"]["Error"];
                429: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/hosted/{slug}/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A conversation's history, with its token */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Conversation-Token": string;
                };
                path: {
                    slug: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Conversation */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PublicConversation"];
                    };
                };
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The documents of one of your applications, newest first */
        get: {
            parameters: {
                query: {
                    applicationId: string;
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Documents */
                200: {
                    headers: {
                        /** @description How many there are in all */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeDocument"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Add a document to an application's knowledge base; it is processed in the background. A file by the name of a document already there becomes that document's next version (202, same id).
         * @description Text files (.txt .md .json .csv .html .xml, at most 10 MB) are parsed, chunked, embedded and indexed. The answer comes at once with status processing; poll GET /api/knowledge/{id}. Unreadable files are refused at once (XML with a DOCTYPE, empty or non-UTF-8 files).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description Text, Markdown, JSON, CSV, HTML, XML, PDF (its text layer; encrypted and image-only PDFs are refused) or DOCX (.docm and documents with macros are refused). The same file twice in one application answers 409 naming the first.
                         */
                        file: string;
                        /** Format: uuid */
                        applicationId: string;
                        /**
                         * @description Characters per chunk
                         * @default 1000
                         */
                        chunkSize?: number;
                        /**
                         * @description Characters shared with the previous chunk, at most half of chunkSize
                         * @default 200
                         */
                        chunkOverlap?: number;
                        /**
                         * @description Providers embed with your own key, or the platform's on a paid plan
                         * @default local
                         * @enum {string}
                         */
                        embeddingProvider?: "local" | "provider_a" | "provider_c" | "provider_d";
                        /**
                         * @description The provider's embedding model; its default when omitted
                         * @example local-hash-384
                         */
                        embeddingModel?: string;
                    };
                };
            };
            responses: {
                /** @description Accepted, processing */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeDocument"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                413: components["responses"]["Error"];
                415: components["responses"]["Error"];
                503: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search an application's ready documents by meaning, by words or both (hybrid); chunks best first with their place and cosine relevance */
        get: {
            parameters: {
                query: {
                    /** @description The application whose bases are searched (its own and every other it uses); give this or baseId */
                    applicationId?: string;
                    /** @description One knowledge base alone (the console's search tester of a base); not with applicationId or asChat */
                    baseId?: string;
                    query: string;
                    limit?: number;
                    /** @description vector (by meaning), keyword (full text: the query's distinctive words) or hybrid (both fused by reciprocal rank). Default: the application's retrieval.mode (hybrid unless changed) */
                    mode?: "hybrid" | "vector" | "keyword";
                    /** @description true: exactly what the chat would get under the application's retrieval settings (top-K, score threshold, mode, reranker); limit and mode are then ignored */
                    asChat?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Matching chunks */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeSearchResult"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                502: components["responses"]["Error"];
                503: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A document with its processing state (status, progress, chunks, error, embedding model and dimension) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Document */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeDocument"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /** Give a document a new file: it becomes the next version, built beside the current chunks and switched in one step when ready (searches see the old version until then, the new one after) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description The new file; the same bytes as the current version answer 409
                         */
                        file: string;
                    };
                };
            };
            responses: {
                /** @description Accepted: `reindexing.version` is the version being built */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeDocument"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                413: components["responses"]["Error"];
                415: components["responses"]["Error"];
                503: components["responses"]["Error"];
            };
        };
        post?: never;
        /** Delete a document and its chunks */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/{id}/reindex": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-index a ready document with new chunk settings; it stays searchable with its current chunks until the new ones replace them in one step */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /** @description Characters; the document's current size when absent */
                        chunkSize?: number;
                        /** @description Characters, at most half of chunkSize; the current overlap when absent */
                        chunkOverlap?: number;
                    };
                };
            };
            responses: {
                /** @description Accepted: `reindexing` shows the settings being built */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeDocument"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                503: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A document's versions, newest first: who uploaded each, when, its size and checksum */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Versions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeDocumentVersion"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/{id}/versions/{version}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Roll back: a new version holding that version's file, switched in one step when ready */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    version: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Accepted */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeDocument"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                503: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/{id}/chunks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chunks the document became, disabled ones included, in order */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Chunks; X-Total-Count holds their number */
                200: {
                    headers: {
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeChunk"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /** Add a chunk written by hand after the last one (embedded with the document's model) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Customers may return any purchase within 60 days for a full refund. */
                        content: string;
                        /** @example Returns > Exceptions */
                        section?: string | null;
                        page?: number | null;
                    };
                };
            };
            responses: {
                /** @description The chunk */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeChunk"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                502: components["responses"]["Error"];
                503: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/{id}/chunks/{index}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Edit a chunk's text (embedded again) or enable/disable it; a re-index or new version rebuilds chunks from the file */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    index: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Customers may return any purchase within 60 days for a full refund. */
                        content?: string;
                        enabled?: boolean;
                    };
                };
            };
            responses: {
                /** @description The chunk */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeChunk"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                502: components["responses"]["Error"];
                503: components["responses"]["Error"];
            };
        };
        trace?: never;
    };
    "/api/knowledge/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** How a file would be chunked with given settings; nothing is stored */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /** Format: binary */
                        file: string;
                        /** @default 1000 */
                        chunkSize?: number;
                        /** @default 200 */
                        chunkOverlap?: number;
                    };
                };
            };
            responses: {
                /** @description The chunks (the first 100) and their number */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @example returns-policy.md */
                            fileName?: string;
                            /** @example md */
                            format?: string;
                            chunkSize?: number;
                            chunkOverlap?: number;
                            total?: number;
                            chunks?: {
                                chunkIndex?: number;
                                /** @example Customers may return any purchase within 60 days for a full refund. */
                                content?: string;
                                tokenCount?: number;
                                page?: number | null;
                                /** @example Returns > Exceptions */
                                section?: string | null;
                            }[];
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                413: components["responses"]["Error"];
                415: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/reindex": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-index every ready document of an application (each stays searchable until its new chunks switch in); each document's reindexing.progress shows how far it has got */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: uuid */
                        applicationId: string;
                        chunkSize?: number;
                        chunkOverlap?: number;
                    };
                };
            };
            responses: {
                /** @description Accepted */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            started?: number;
                            /** @description Documents not ready */
                            skipped?: number;
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                503: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/bases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The knowledge bases of their own you can read: your personal ones and your teams', newest first */
        get: {
            parameters: {
                query?: {
                    /** @description Only this team's (a team you are not in: 404) */
                    teamId?: string;
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Knowledge bases */
                200: {
                    headers: {
                        /** @description How many there are in all */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeBase"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /** Create a knowledge base, personal or (with teamId, as a Member or above) a team's */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Company handbook */
                        name: string;
                        /** @example Travel, expenses and leave rules every desk follows */
                        description?: string;
                        /** Format: uuid */
                        teamId?: string | null;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeBase"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/bases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One knowledge base (an application's own base has the application's id) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Knowledge base */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeBase"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        /** Delete a knowledge base with its documents (its owner, or the team's Owner); the applications that used it stop using it. An application's own base goes with its application (409). */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        /** Rename a knowledge base or change its description (Member or above) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Company handbook */
                        name?: string;
                        /** @example Travel, expenses and leave rules every desk follows */
                        description?: string;
                    };
                };
            };
            responses: {
                /** @description Knowledge base */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeBase"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        trace?: never;
    };
    "/api/knowledge/bases/{id}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The documents of a knowledge base, newest first */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Documents */
                200: {
                    headers: {
                        /** @description How many there are in all */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeDocument"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /** Add a document to a knowledge base (Member or above), as POST /api/knowledge does to an application's own base; a file by the name of a document already there becomes its next version */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description Text, Markdown, JSON, CSV, HTML, XML, PDF (its text layer; encrypted and image-only PDFs are refused) or DOCX (.docm and documents with macros are refused). The same file twice in one application answers 409 naming the first.
                         */
                        file: string;
                        /**
                         * @description Characters per chunk
                         * @default 1000
                         */
                        chunkSize?: number;
                        /**
                         * @description Characters shared with the previous chunk, at most half of chunkSize
                         * @default 200
                         */
                        chunkOverlap?: number;
                        /**
                         * @description Providers embed with your own key, or the platform's on a paid plan
                         * @default local
                         * @enum {string}
                         */
                        embeddingProvider?: "local" | "provider_a" | "provider_c" | "provider_d";
                        /**
                         * @description The provider's embedding model; its default when omitted
                         * @example local-hash-384
                         */
                        embeddingModel?: string;
                    };
                };
            };
            responses: {
                /** @description Accepted, processing */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeDocument"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                413: components["responses"]["Error"];
                415: components["responses"]["Error"];
                503: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/bases/{id}/reindex": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-index every ready document of a knowledge base (each stays searchable until its new chunks switch in) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        chunkSize?: number;
                        chunkOverlap?: number;
                    };
                };
            };
            responses: {
                /** @description Accepted */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            started?: number;
                            /** @description Documents not ready */
                            skipped?: number;
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                503: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/settings/{applicationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An application's retrieval settings */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    applicationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Settings */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeRetrievalSettings"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /** Change an application's retrieval settings (the fields given; the others keep their values) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    applicationId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description null: the application's retrieval.mode
                         * @enum {string|null}
                         */
                        mode?: "hybrid" | "vector" | "keyword" | null;
                        /**
                         * @description Chunks at most in the prompt and the sources
                         * @default 8
                         */
                        topK?: number;
                        /** @description The lowest cosine score a chunk needs to reach the prompt and the sources; null: each embedder's own floor */
                        scoreThreshold?: number | null;
                        rerank?: boolean;
                        /** @description Replaces the other knowledge bases the application uses (its own is always used): bases of their own you may read; an application's own base is refused (400), one you may not see is a 404 */
                        baseIds?: string[];
                    };
                };
            };
            responses: {
                /** @description Settings */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KnowledgeRetrievalSettings"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The application's logs
         * @description The application's conversations from every channel, newest activity first. Any role that sees the application.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    /** @description One or more of console, api, widget, hosted_page, workflow, separated by commas */
                    channel?: string;
                    /** @description Last activity at or after (ISO 8601 date or date and time) */
                    from?: string;
                    /** @description Last activity before */
                    to?: string;
                    /** @description rated, good (4-5), bad (1-2) or unrated */
                    rating?: "rated" | "good" | "bad" | "unrated";
                    /** @description With (true) or without (false) a failed answer */
                    errors?: "true" | "false";
                    /** @description With (true) or without (false) a tool call */
                    tools?: "true" | "false";
                    /** @description Words one of its messages holds */
                    q?: string;
                };
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Page */
                200: {
                    headers: {
                        /** @description How many there are in all */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LogRow"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/logs/{conversationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One conversation of the logs
         * @description Its messages; each answer with its trace, sources, tool calls, tokens, cost and rating. A conversation of another application answers 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                    conversationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Conversation */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LogConversation"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/annotations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Annotations
         * @description Newest first; `q` searches questions and answers.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    /** @description Text in the question or the answer */
                    q?: string;
                };
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Page */
                200: {
                    headers: {
                        /** @description How many there are in all */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Annotation"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Annotate
         * @description From an answer (`messageId`): as it is (kind good), or with the answer it should have been (`answer`, kind corrected); or a question and answer written by hand (kind manual). One annotation per answer (409). Roles that may change the application.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
                        messageId?: string;
                        /** @example How do I reset my password? */
                        question?: string;
                        /** @example Open Settings, choose Security, then Reset password. */
                        answer?: string;
                    };
                };
            };
            responses: {
                /** @description Annotation */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Annotation"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/annotations/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export annotations
         * @description Every annotation, oldest first, as CSV (default) or JSON Lines.
         */
        get: {
            parameters: {
                query?: {
                    /** @description csv or jsonl */
                    format?: "csv" | "jsonl";
                };
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description File */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": string;
                        "application/x-ndjson": string;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/annotations/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Annotation replies
         * @description Whether close questions are answered from the annotations, and how close (cosine similarity).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Settings */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AnnotationSettings"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /**
         * Set annotation replies
         * @description Roles that may change the application.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        repliesEnabled: boolean;
                        /** @example 0.9 */
                        threshold: number;
                    };
                };
            };
            responses: {
                /** @description Settings */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AnnotationSettings"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/annotations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Edit an annotation
         * @description A new question or answer.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example How do I reset my password? */
                        question?: string;
                        /** @example Open Settings, choose Security, then Reset password. */
                        answer?: string;
                    };
                };
            };
            responses: {
                /** @description Annotation */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Annotation"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        /** Delete an annotation */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/browse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Browse published plugins
         * @description Empty when no marketplace is configured.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    /** @description Words of the name or description */
                    search?: string;
                    category?: string;
                    sort?: "popular" | "recent" | "rating";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of plugins */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplacePage"];
                    };
                };
                400: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/plugins/featured": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Featured plugins */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Plugins an administrator featured */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplacePlugin"][];
                    };
                };
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/featured": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Featured plugins */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Plugins an administrator featured */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplacePlugin"][];
                    };
                };
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/plugins/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plugin categories in use */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Distinct categories */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string[];
                    };
                };
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plugin categories in use */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Distinct categories */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string[];
                    };
                };
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/plugins/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A plugin with rating statistics and recent reviews */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Plugin detail */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceItemDetail"];
                    };
                };
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/plugins/{id}/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reviews of a plugin */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    skip?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Reviews, newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceReview"][];
                    };
                };
                400: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Review a plugin (one per user: again updates it) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 5 */
                        rating: number;
                        /** @example Caught every word on our list. */
                        review?: string;
                    };
                };
            };
            responses: {
                /** @description The review */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceReview"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Delete your review of a plugin */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/plugins/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Versions of a plugin, newest release first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Versions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceVersion"][];
                    };
                };
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Publish a version (the plugin's author or an administrator) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 1.1.0 */
                        version: string;
                        /** @example Adds a custom word list */
                        changelog?: string;
                        /** Format: uri */
                        downloadUrl?: string;
                        /** @example 2048 */
                        fileSize?: number;
                        /** @example sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 */
                        checksum?: string;
                        compatibility?: {
                            /** @example 0.1.0 */
                            minPlatformVersion?: string;
                            /** @example 1.0.0 */
                            maxPlatformVersion?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Published */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceVersion"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/plugins/{id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One version of a plugin */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    version: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The version */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceVersion"];
                    };
                };
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/plugins/{id}/licenses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Licenses of a paid plugin (its author or an administrator) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Licenses of a paid plugin (its author or an administrator) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id?: string;
                            /** Format: uuid */
                            pluginId?: string;
                            /** Format: uuid */
                            userId?: string;
                            /** @example x7Qa */
                            keyHint?: string;
                            /** @example active */
                            status?: string;
                        }[];
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Issue a license of a paid plugin to a user (its author or an administrator) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description The license */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/licenses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your licenses: the paid plugins you hold a license for, newest first
         * @description The caller's own licenses (bought through Checkout or issued by a plugin's author), newest first, with the plugin as the catalogue shows it. Never a license key. The total is in `X-Total-Count`. With no marketplace configured the list is empty.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of your licenses */
                200: {
                    headers: {
                        /** @description All the licenses you hold */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceHeldLicense"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/themes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Browse published themes */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    /** @description Words of the name or description */
                    search?: string;
                    category?: string;
                    sort?: "popular" | "recent" | "rating";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of themes */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplacePage"];
                    };
                };
                400: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/themes/featured": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Featured themes */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Themes an administrator featured */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceTheme"][];
                    };
                };
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/themes/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Theme categories in use */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Distinct categories */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string[];
                    };
                };
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/themes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A theme with rating statistics */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Theme detail */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceItemDetail"];
                    };
                };
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/themes/{id}/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reviews of a theme */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    skip?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Reviews */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceReview"][];
                    };
                };
                400: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Review a theme */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 5 */
                        rating: number;
                        /** @example Caught every word on our list. */
                        review?: string;
                    };
                };
            };
            responses: {
                /** @description The review */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceReview"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Delete your review of a theme */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/themes/{id}/install": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a marketplace theme to your themes, selectable for your applications */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Your new theme */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Theme"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                402: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/submit/plugin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit a plugin for review */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example profanity-filter */
                        name: string;
                        /** @example profanity-filter */
                        slug: string;
                        /** @example 1.0.0 */
                        version: string;
                        /** @example Masks rude words */
                        description?: string;
                        /** @example Ada Lovelace */
                        author?: string;
                        /** Format: uri */
                        authorUrl?: string;
                        /** Format: uri */
                        repositoryUrl?: string;
                        /** Format: uri */
                        iconUrl?: string;
                        screenshots?: string[];
                        isPaid?: boolean;
                        /** @example 9 */
                        price?: number;
                        /** @example security */
                        category?: string;
                        manifest?: Record<string, never>;
                        /**
                         * @description The plugin ZIP, base64-encoded
                         * @example UEsDBBQAAAAIAA...
                         */
                        package?: string;
                    };
                };
            };
            responses: {
                /** @description Pending review */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                409: components["responses"]["Error"];
                413: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/submit/theme": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit a theme for review */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example midnight */
                        name: string;
                        /** @example midnight */
                        slug: string;
                        /** @example 1.0.0 */
                        version: string;
                        /** @example A dark theme */
                        description?: string;
                        /** @example Ada Lovelace */
                        author?: string;
                        /** Format: uri */
                        authorUrl?: string;
                        /** Format: uri */
                        previewUrl?: string;
                        /** Format: uri */
                        iconUrl?: string;
                        screenshots?: string[];
                        /** @example minimal */
                        category?: string;
                        isPaid?: boolean;
                        /** @example 5 */
                        price?: number;
                        manifest?: Record<string, never>;
                        defaultStyles?: Record<string, never>;
                    };
                };
            };
            responses: {
                /** @description Pending review */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/admin/pending/plugins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plugins awaiting review (administrators) */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of submissions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplacePage"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/admin/plugins/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a submitted plugin (administrators) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Published */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/admin/plugins/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a submitted plugin with a reason the author can read (administrators) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example The package's manifest asks for hosts it never uses */
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Rejected */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/admin/plugins/{id}/featured": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Feature or unfeature a plugin (administrators) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        featured: boolean;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/admin/pending/themes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Themes awaiting review (administrators) */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of submissions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplacePage"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/admin/themes/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a submitted theme (administrators) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Published */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/admin/themes/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a submitted theme with a reason the author can read (administrators) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example The package's manifest asks for hosts it never uses */
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Rejected */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/admin/themes/{id}/featured": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Feature or unfeature a theme (administrators) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        featured: boolean;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your installed marketplace plugins with a newer compatible version
         * @description Written by a daily check of every installed marketplace plugin.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Update entries */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceUpdate"][];
                    };
                };
                401: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/updates/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many of your installed marketplace plugins have an update */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The count */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @example 1 */
                            count?: number;
                        };
                    };
                };
                401: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/updates/{installedPluginId}/mark-updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Clear an update entry once the installation runs the new version */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The plugin installation's id */
                    installedPluginId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 1.1.0 */
                        newVersion: string;
                    };
                };
            };
            responses: {
                /** @description success is true when no update is pending any more */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/marketplace/updates/{installedPluginId}/upgrade": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upgrade an installation to a newer version, keeping its settings and stored data
         * @description Without version, the newest release compatible with this platform. The package is downloaded and its size and sha256 checksum verified before anything changes. An active installation is deactivated for the swap and activated again; if that fails, reactivationError says why.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The plugin installation's id */
                    installedPluginId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 1.1.0 */
                        version?: string;
                        /** @description Settings to change or add (the new version may need new ones) */
                        settings?: Record<string, never>;
                    };
                };
            };
            responses: {
                /** @description The installation on its new version */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @example 1.1.0 */
                            version?: string;
                            /** @example 1.0.0 */
                            previousVersion?: string;
                            /** @example activated */
                            state?: string;
                            /** @example This paid plugin needs a valid license */
                            reactivationError?: string;
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/browse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Browse published plugins
         * @description Empty when no marketplace is configured.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    /** @description Words of the name or description */
                    search?: string;
                    category?: string;
                    sort?: "popular" | "recent" | "rating";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of plugins */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplacePage"];
                    };
                };
                400: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/plugins/featured": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Featured plugins */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Plugins an administrator featured */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplacePlugin"][];
                    };
                };
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/featured": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Featured plugins */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Plugins an administrator featured */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplacePlugin"][];
                    };
                };
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/plugins/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plugin categories in use */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Distinct categories */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string[];
                    };
                };
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plugin categories in use */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Distinct categories */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string[];
                    };
                };
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/plugins/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A plugin with rating statistics and recent reviews */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Plugin detail */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceItemDetail"];
                    };
                };
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/plugins/{id}/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reviews of a plugin */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    skip?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Reviews, newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceReview"][];
                    };
                };
                400: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Review a plugin (one per user: again updates it) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 5 */
                        rating: number;
                        /** @example Caught every word on our list. */
                        review?: string;
                    };
                };
            };
            responses: {
                /** @description The review */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceReview"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Delete your review of a plugin */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/plugins/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Versions of a plugin, newest release first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Versions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceVersion"][];
                    };
                };
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Publish a version (the plugin's author or an administrator) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 1.1.0 */
                        version: string;
                        /** @example Adds a custom word list */
                        changelog?: string;
                        /** Format: uri */
                        downloadUrl?: string;
                        /** @example 2048 */
                        fileSize?: number;
                        /** @example sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 */
                        checksum?: string;
                        compatibility?: {
                            /** @example 0.1.0 */
                            minPlatformVersion?: string;
                            /** @example 1.0.0 */
                            maxPlatformVersion?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Published */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceVersion"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/plugins/{id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One version of a plugin */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    version: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The version */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceVersion"];
                    };
                };
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/plugins/{id}/licenses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Licenses of a paid plugin (its author or an administrator) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Licenses of a paid plugin (its author or an administrator) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id?: string;
                            /** Format: uuid */
                            pluginId?: string;
                            /** Format: uuid */
                            userId?: string;
                            /** @example x7Qa */
                            keyHint?: string;
                            /** @example active */
                            status?: string;
                        }[];
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Issue a license of a paid plugin to a user (its author or an administrator) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description The license */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/licenses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your licenses: the paid plugins you hold a license for, newest first
         * @description The caller's own licenses (bought through Checkout or issued by a plugin's author), newest first, with the plugin as the catalogue shows it. Never a license key. The total is in `X-Total-Count`. With no marketplace configured the list is empty.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of your licenses */
                200: {
                    headers: {
                        /** @description All the licenses you hold */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceHeldLicense"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/themes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Browse published themes */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    /** @description Words of the name or description */
                    search?: string;
                    category?: string;
                    sort?: "popular" | "recent" | "rating";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of themes */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplacePage"];
                    };
                };
                400: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/themes/featured": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Featured themes */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Themes an administrator featured */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceTheme"][];
                    };
                };
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/themes/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Theme categories in use */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Distinct categories */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string[];
                    };
                };
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/themes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A theme with rating statistics */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Theme detail */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceItemDetail"];
                    };
                };
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/themes/{id}/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reviews of a theme */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    skip?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Reviews */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceReview"][];
                    };
                };
                400: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Review a theme */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 5 */
                        rating: number;
                        /** @example Caught every word on our list. */
                        review?: string;
                    };
                };
            };
            responses: {
                /** @description The review */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceReview"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Delete your review of a theme */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/themes/{id}/install": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a marketplace theme to your themes, selectable for your applications */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Your new theme */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Theme"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                402: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/submit/plugin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit a plugin for review */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example profanity-filter */
                        name: string;
                        /** @example profanity-filter */
                        slug: string;
                        /** @example 1.0.0 */
                        version: string;
                        /** @example Masks rude words */
                        description?: string;
                        /** @example Ada Lovelace */
                        author?: string;
                        /** Format: uri */
                        authorUrl?: string;
                        /** Format: uri */
                        repositoryUrl?: string;
                        /** Format: uri */
                        iconUrl?: string;
                        screenshots?: string[];
                        isPaid?: boolean;
                        /** @example 9 */
                        price?: number;
                        /** @example security */
                        category?: string;
                        manifest?: Record<string, never>;
                        /**
                         * @description The plugin ZIP, base64-encoded
                         * @example UEsDBBQAAAAIAA...
                         */
                        package?: string;
                    };
                };
            };
            responses: {
                /** @description Pending review */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                409: components["responses"]["Error"];
                413: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/submit/theme": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit a theme for review */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example midnight */
                        name: string;
                        /** @example midnight */
                        slug: string;
                        /** @example 1.0.0 */
                        version: string;
                        /** @example A dark theme */
                        description?: string;
                        /** @example Ada Lovelace */
                        author?: string;
                        /** Format: uri */
                        authorUrl?: string;
                        /** Format: uri */
                        previewUrl?: string;
                        /** Format: uri */
                        iconUrl?: string;
                        screenshots?: string[];
                        /** @example minimal */
                        category?: string;
                        isPaid?: boolean;
                        /** @example 5 */
                        price?: number;
                        manifest?: Record<string, never>;
                        defaultStyles?: Record<string, never>;
                    };
                };
            };
            responses: {
                /** @description Pending review */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/admin/pending/plugins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plugins awaiting review (administrators) */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of submissions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplacePage"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/admin/plugins/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a submitted plugin (administrators) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Published */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/admin/plugins/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a submitted plugin with a reason the author can read (administrators) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example The package's manifest asks for hosts it never uses */
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Rejected */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/admin/plugins/{id}/featured": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Feature or unfeature a plugin (administrators) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        featured: boolean;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/admin/pending/themes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Themes awaiting review (administrators) */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of submissions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplacePage"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/admin/themes/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a submitted theme (administrators) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Published */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/admin/themes/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a submitted theme with a reason the author can read (administrators) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example The package's manifest asks for hosts it never uses */
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Rejected */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/admin/themes/{id}/featured": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Feature or unfeature a theme (administrators) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        featured: boolean;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your installed marketplace plugins with a newer compatible version
         * @description Written by a daily check of every installed marketplace plugin.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Update entries */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceUpdate"][];
                    };
                };
                401: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/updates/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many of your installed marketplace plugins have an update */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The count */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @example 1 */
                            count?: number;
                        };
                    };
                };
                401: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/updates/{installedPluginId}/mark-updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Clear an update entry once the installation runs the new version */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The plugin installation's id */
                    installedPluginId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 1.1.0 */
                        newVersion: string;
                    };
                };
            };
            responses: {
                /** @description success is true when no update is pending any more */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/marketplace/updates/{installedPluginId}/upgrade": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upgrade an installation to a newer version, keeping its settings and stored data
         * @description Without version, the newest release compatible with this platform. The package is downloaded and its size and sha256 checksum verified before anything changes. An active installation is deactivated for the swap and activated again; if that fails, reactivationError says why.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The plugin installation's id */
                    installedPluginId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 1.1.0 */
                        version?: string;
                        /** @description Settings to change or add (the new version may need new ones) */
                        settings?: Record<string, never>;
                    };
                };
            };
            responses: {
                /** @description The installation on its new version */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @example 1.1.0 */
                            version?: string;
                            /** @example 1.0.0 */
                            previousVersion?: string;
                            /** @example activated */
                            state?: string;
                            /** @example This paid plugin needs a valid license */
                            reactivationError?: string;
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/marketplace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Marketplace submissions awaiting review, with counts (administrators) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Pending items and counts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            configured?: boolean;
                            pending?: {
                                plugins?: Record<string, never>[];
                                themes?: Record<string, never>[];
                            };
                            counts?: {
                                /** @example 2 */
                                pendingPlugins?: number;
                                /** @example 0 */
                                pendingThemes?: number;
                            };
                        };
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/plugins/{id}/licenses/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a user's license (the plugin's author or an administrator) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Revoke a user's license (the plugin's author or an administrator) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id?: string;
                            /** Format: uuid */
                            pluginId?: string;
                            /** Format: uuid */
                            userId?: string;
                            /** @example x7Qa */
                            keyHint?: string;
                            /** @example active */
                            status?: string;
                        };
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/submissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your submissions with their review status and any rejection reason */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Your submissions with their review status and any rejection reason */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceSubmission"][];
                    };
                };
                401: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/marketplace/admin/pending/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many submissions await review (administrators) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description How many submissions await review (administrators) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @example 2 */
                            plugins?: number;
                            /** @example 1 */
                            themes?: number;
                            /** @example 3 */
                            total?: number;
                        };
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/plugins/{id}/licenses/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a user's license (the plugin's author or an administrator) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Revoke a user's license (the plugin's author or an administrator) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id?: string;
                            /** Format: uuid */
                            pluginId?: string;
                            /** Format: uuid */
                            userId?: string;
                            /** @example x7Qa */
                            keyHint?: string;
                            /** @example active */
                            status?: string;
                        };
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/submissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your submissions with their review status and any rejection reason */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Your submissions with their review status and any rejection reason */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MarketplaceSubmission"][];
                    };
                };
                401: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/admin/pending/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many submissions await review (administrators) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description How many submissions await review (administrators) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @example 2 */
                            plugins?: number;
                            /** @example 1 */
                            themes?: number;
                            /** @example 3 */
                            total?: number;
                        };
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                /** @description The marketplace failed or answered something unreadable */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The marketplace cannot be reached (refused or timed out) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/model-configs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Model configs of an application */
        get: {
            parameters: {
                query: {
                    applicationId: string;
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Configs, oldest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ModelConfig"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Create a model config
         * @description The application's first config becomes its default. Send name or displayName. Settings out of range answer 400 naming the field.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
                        applicationId: string;
                        /** @example Support Bot */
                        name?: string;
                        /**
                         * @description Used as the name when name is absent
                         * @example Ada Lovelace
                         */
                        displayName?: string;
                        /**
                         * @description provider_a, provider_b, provider_c, provider_d, or the name of one of the connections of the application's owner (docs/connections.md).
                         * @example provider_a
                         */
                        provider: string;
                        /**
                         * @description Defaults to the provider's default model
                         * @example gpt-4o-mini
                         */
                        modelId?: string;
                        settings?: components["schemas"]["ModelSettings"];
                        /** @description true makes it the application's default */
                        isDefault?: boolean;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ModelConfig"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/model-configs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A model config */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Config */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ModelConfig"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /**
         * Update a model config (partial)
         * @description Settings sent are merged over the stored ones and checked again against the (possibly new) provider and model.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
                        applicationId?: string;
                        /** @example Support Bot */
                        name?: string;
                        /**
                         * @description Used as the name when name is absent
                         * @example Ada Lovelace
                         */
                        displayName?: string;
                        /**
                         * @description provider_a, provider_b, provider_c, provider_d, or the name of one of the connections of the application's owner (docs/connections.md).
                         * @example provider_a
                         */
                        provider?: string;
                        /**
                         * @description Defaults to the provider's default model
                         * @example gpt-4o-mini
                         */
                        modelId?: string;
                        settings?: components["schemas"]["ModelSettings"];
                        /** @description true makes it the application's default */
                        isDefault?: boolean;
                    };
                };
            };
            responses: {
                /** @description Config */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ModelConfig"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        post?: never;
        /**
         * Delete a model config and its versions
         * @description The default config answers 409 until another config is the default.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/model-configs/{id}/default": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Make the config its application's default
         * @description The previous default is unset; concurrent switches leave exactly one default.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Config */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ModelConfig"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        trace?: never;
    };
    "/api/model-configs/{configId}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A/B versions of a config, with metrics */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    configId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Versions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ModelConfigVersion"][];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Add an A/B version
         * @description Provider and model default to the config's; settings start from the config's where they fit (all for the same model, all but maxTokens for another model of the provider, only systemPrompt for another provider).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    configId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Optional; must be the config's application
                         * @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d
                         */
                        applicationId?: string;
                        /**
                         * @description Defaults to v<n>
                         * @example v2
                         */
                        version?: string;
                        /**
                         * @description Unique among the config's versions (409 otherwise)
                         * @example Warmer answers
                         */
                        label: string;
                        /**
                         * @description provider_a, provider_b, provider_c, provider_d, or the name of one of the connections of the application's owner (docs/connections.md).
                         * @example provider_a
                         */
                        provider?: string;
                        /** @example gpt-4o-mini */
                        modelId?: string;
                        settings?: components["schemas"]["ModelSettings"];
                        /** @description At most two decimals; active versions of a config share at most 100, the rest goes to the config itself */
                        trafficPercent?: number;
                        isActive?: boolean;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ModelConfigVersion"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/model-configs/{configId}/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compare the control arm with the A/B versions
         * @description Answers from the config itself count for the control arm while an A/B test runs (an active version of the default config takes traffic); its metrics are those of a version: requests, average latency and tokens of successful answers, error rate and average rating.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    configId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The control and the versions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ConfigComparison"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/model-configs/{configId}/versions/{versionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Update a version (partial) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    configId: string;
                    versionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Optional; must be the config's application
                         * @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d
                         */
                        applicationId?: string;
                        /**
                         * @description Defaults to v<n>
                         * @example v2
                         */
                        version?: string;
                        /**
                         * @description Unique among the config's versions (409 otherwise)
                         * @example Warmer answers
                         */
                        label?: string;
                        /**
                         * @description provider_a, provider_b, provider_c, provider_d, or the name of one of the connections of the application's owner (docs/connections.md).
                         * @example provider_a
                         */
                        provider?: string;
                        /** @example gpt-4o-mini */
                        modelId?: string;
                        settings?: components["schemas"]["ModelSettings"];
                        /** @description At most two decimals; active versions of a config share at most 100, the rest goes to the config itself */
                        trafficPercent?: number;
                        isActive?: boolean;
                    };
                };
            };
            responses: {
                /** @description Version */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ModelConfigVersion"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        post?: never;
        /**
         * Delete a version
         * @description An active version's share is redistributed over the config's remaining active versions in proportion to their shares (equally if they all hold 0), to two decimals with the sum preserved exactly; with none left it returns to the config itself.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    configId: string;
                    versionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/messages/{messageId}/rating": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rate an answer from 1 to 5
         * @description Only answers of the assistant that did not fail; rating again replaces the rating. Feeds userSatisfactionScore of the answer's config version.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    messageId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        rating: number;
                    };
                };
            };
            responses: {
                /** @description Rating stored */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MessageRating"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your notifications, newest first */
        get: {
            parameters: {
                query?: {
                    category?: "billing" | "team" | "knowledge" | "webhook" | "plugin" | "security";
                    unread?: "true" | "false";
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Notifications */
                200: {
                    headers: {
                        /** @description Items in all pages */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Notification"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/unread-count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many are unread (cheap; dashboards poll it every 30 s) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Count */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                        };
                    };
                };
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/{id}/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Mark one read */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Read */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Notification"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/read-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Mark all read */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description How many changed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            updated?: number;
                        };
                    };
                };
                401: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's plugins and every published one */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Plugins */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Plugin"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        /** Create a private plugin (JSON or ZIP package) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        manifest: components["schemas"]["PluginManifest"];
                        /** @example export default { hooks: { 'message:beforeSend': (m) => m } } */
                        source: string;
                    };
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description ZIP with manifest.json and the main script (≤ 50 files, 512 KB each, 2 MB unpacked, no ../ paths)
                         */
                        package?: string;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Plugin"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                409: components["responses"]["Error"];
                413: components["responses"]["Error"];
                415: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One plugin: manifest and versions; source only for the owner or once published */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Plugin */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Plugin"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/{id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Make the caller's plugin installable by every user */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Published */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Plugin"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/plugins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Installations of the application with state, version, counters and last error */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Installations */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PluginInstallation"][];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /** Install a plugin in an application (state installed) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
                        pluginId: string;
                        settings?: Record<string, never>;
                    } | {
                        /** Format: uuid */
                        marketplacePluginId: string;
                        /**
                         * @description Default: the newest release compatible with this platform
                         * @example 1.1.0
                         */
                        version?: string;
                        settings?: Record<string, never>;
                    };
                };
            };
            responses: {
                /** @description Installed */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PluginInstallation"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                402: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                502: components["responses"]["Error"];
                503: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/plugins/admin-pages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Admin pages declared by the application's active plugins */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Pages */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @example /stats */
                            path?: string;
                            /** @example Order status */
                            title?: string;
                            /** @example chart-bar */
                            icon?: string;
                            /** @example stats */
                            component?: string;
                            /** @example Insights */
                            group?: string;
                            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
                            pluginId?: string;
                            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
                            installationId?: string;
                        }[];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/plugins/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One installation (id of the installation or of the plugin) with its recent runs */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Installation */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PluginInstallation"] & {
                            runs?: {
                                /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
                                id?: string;
                                /** @example cron */
                                kind?: string;
                                /** @example Support Bot */
                                name?: string;
                                ok?: boolean;
                                /** @example the receiver answered 500 */
                                error?: string | null;
                                durationMs?: number;
                                /** Format: date-time */
                                at?: string;
                            }[];
                        };
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        /** Uninstall (installed or deactivated): KV data, run log and schedules removed */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Uninstalled */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/plugins/{id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** installed|deactivated → activated: loads the code, runs onActivate, schedules cron */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Activated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PluginInstallation"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                402: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                422: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/plugins/{id}/deactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** activated → deactivated: runs onDeactivate, stops schedules and the isolate */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deactivated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PluginInstallation"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/{pluginId}/endpoints/{*rest}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An endpoint a plugin registered (auth: bearer of the application owner or an API key of the application when the plugin says auth: true) */
        get: {
            parameters: {
                query?: {
                    applicationId?: string;
                };
                header?: {
                    /** @description The application (or ?applicationId=) */
                    "X-Application-Id"?: string;
                };
                path: {
                    pluginId: string;
                    /** @description The endpoint's path as the plugin declared it */
                    rest: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The plugin's answer (status, headers and body it returned; ≤ 1 MB) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                413: components["responses"]["Error"];
                502: components["responses"]["Error"];
            };
        };
        /** An endpoint a plugin registered (auth: bearer of the application owner or an API key of the application when the plugin says auth: true) */
        put: {
            parameters: {
                query?: {
                    applicationId?: string;
                };
                header?: {
                    /** @description The application (or ?applicationId=) */
                    "X-Application-Id"?: string;
                };
                path: {
                    pluginId: string;
                    /** @description The endpoint's path as the plugin declared it */
                    rest: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The plugin's answer (status, headers and body it returned; ≤ 1 MB) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                413: components["responses"]["Error"];
                502: components["responses"]["Error"];
            };
        };
        /** An endpoint a plugin registered (auth: bearer of the application owner or an API key of the application when the plugin says auth: true) */
        post: {
            parameters: {
                query?: {
                    applicationId?: string;
                };
                header?: {
                    /** @description The application (or ?applicationId=) */
                    "X-Application-Id"?: string;
                };
                path: {
                    pluginId: string;
                    /** @description The endpoint's path as the plugin declared it */
                    rest: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The plugin's answer (status, headers and body it returned; ≤ 1 MB) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                413: components["responses"]["Error"];
                502: components["responses"]["Error"];
            };
        };
        /** An endpoint a plugin registered (auth: bearer of the application owner or an API key of the application when the plugin says auth: true) */
        delete: {
            parameters: {
                query?: {
                    applicationId?: string;
                };
                header?: {
                    /** @description The application (or ?applicationId=) */
                    "X-Application-Id"?: string;
                };
                path: {
                    pluginId: string;
                    /** @description The endpoint's path as the plugin declared it */
                    rest: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The plugin's answer (status, headers and body it returned; ≤ 1 MB) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                413: components["responses"]["Error"];
                502: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        /** An endpoint a plugin registered (auth: bearer of the application owner or an API key of the application when the plugin says auth: true) */
        patch: {
            parameters: {
                query?: {
                    applicationId?: string;
                };
                header?: {
                    /** @description The application (or ?applicationId=) */
                    "X-Application-Id"?: string;
                };
                path: {
                    pluginId: string;
                    /** @description The endpoint's path as the plugin declared it */
                    rest: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The plugin's answer (status, headers and body it returned; ≤ 1 MB) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                413: components["responses"]["Error"];
                502: components["responses"]["Error"];
            };
        };
        trace?: never;
    };
    "/api/applications/{appId}/plugins/{id}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replace the installation's settings (checked against the manifest; a secret left out keeps its stored value); an active installation reloads its code */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        settings: Record<string, never>;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PluginInstallation"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/prompts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prompt templates of an application */
        get: {
            parameters: {
                query: {
                    applicationId: string;
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Templates, oldest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PromptTemplate"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /** Create a prompt template */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
                        applicationId: string;
                        /** @example Support Bot */
                        name: string;
                        /**
                         * @description Placeholders are {{name}} or {{ name }}: a letter or underscore, then letters, digits, _ . -; at most 50 different ones
                         * @example How many days do I have to return a widget?
                         */
                        content: string;
                        isDefault?: boolean;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PromptTemplate"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/prompts/render": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Render a template with variables
         * @description Plain single-pass substitution: values are inserted as text and never scanned again or evaluated. A placeholder without a value answers 400 naming it (details path variables.<name>). The result is at most 100000 characters.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description One of your templates; or give content
                         * @example c56a4180-65aa-42ec-a945-5fd21dec0538
                         */
                        templateId?: string;
                        /** @example How many days do I have to return a widget? */
                        content?: string;
                        /** @description At most 200 values */
                        variables?: {
                            [key: string]: string | number | boolean;
                        };
                    };
                };
            };
            responses: {
                /** @description Rendered */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @example Hello Ada, how can I help you today? */
                            rendered?: string;
                            variables?: string[];
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/prompts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A prompt template */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Template */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PromptTemplate"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /** Update a prompt template (partial) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
                        applicationId?: string;
                        /** @example Support Bot */
                        name?: string;
                        /**
                         * @description Placeholders are {{name}} or {{ name }}: a letter or underscore, then letters, digits, _ . -; at most 50 different ones
                         * @example How many days do I have to return a widget?
                         */
                        content?: string;
                        isDefault?: boolean;
                    };
                };
            };
            responses: {
                /** @description Template */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PromptTemplate"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        /** Delete a prompt template */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/prompts/{id}/default": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Make the template its application's default
         * @description The default template's content is the system prompt of the application's conversations when neither the request nor the model config sets one.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Template */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PromptTemplate"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/provider-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's own provider keys
         * @description Hints only; a key is never returned.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The caller's keys, in provider order */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProviderKey"][];
                    };
                };
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/provider-keys/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Save (or replace) the caller's own key for a provider
         * @description The key must start with the provider's prefix and is stored sealed with AES-256-GCM, bound to the caller and provider. Replacing a key clears its lastUsedAt and lastValidatedAt. Own keys answer the caller's chats for that provider and bypass the plan's token quota.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description provider_a (OpenAI), provider_b (Anthropic), provider_c (Google Gemini) or provider_d (Hugging Face); anything else is a 400. */
                    provider: "provider_a" | "provider_b" | "provider_c" | "provider_d";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The raw key; printable characters without spaces
                         * @example sk-proj-2vQ8wX4yZ6aB1cD3eF5gH7jK9mN0pQrS
                         */
                        apiKey: string;
                    };
                };
            };
            responses: {
                /** @description Saved */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SavedProviderKey"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        post?: never;
        /**
         * Delete the caller's key for a provider
         * @description Permanently removes the key. The next chat on that provider uses the platform key on a paid plan, or answers 402 on Free.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description provider_a (OpenAI), provider_b (Anthropic), provider_c (Google Gemini) or provider_d (Hugging Face); anything else is a 400. */
                    provider: "provider_a" | "provider_b" | "provider_c" | "provider_d";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/provider-keys/{provider}/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check the saved key with a live model listing
         * @description 200 in both cases: `valid: true` with the models (and lastValidatedAt set), or `valid: false` with the provider's reason when it refused the key. A provider outage or timeout is not a verdict on the key: 502/504. A stored key that fails its integrity check (tampered, or copied from another row) is a 409 asking to save it again.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description provider_a (OpenAI), provider_b (Anthropic), provider_c (Google Gemini) or provider_d (Hugging Face); anything else is a 400. */
                    provider: "provider_a" | "provider_b" | "provider_c" | "provider_d";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The provider's verdict */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProviderKeyValidation"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                502: components["responses"]["Error"];
                504: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Chat with an application (whole answer)
         * @description Sends `message` to the application's model on behalf of its owner (the owner's plan, provider keys and quota apply). Without `conversationId` a conversation is started (source `api`, or `widget`); with it, a conversation started by this same key continues.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description `widget` when the embeddable widget calls: its conversations are counted as widget traffic (source `widget`) instead of `api`. */
                    "X-Client"?: "widget";
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PublicChatRequest"];
                };
            };
            responses: {
                /** @description The whole answer */
                200: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        "X-Conversation-Id": components["headers"]["XConversationId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PublicAnswer"];
                    };
                };
                /** @description Validation error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing, unknown or revoked API key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The application owner's plan allows no more (or no platform usage on Free) */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Application outside the key's scope, or a browser origin the application does not allow */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                424: components["responses"]["FailedDependency"];
                /** @description Past the key's requests per minute */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        "Retry-After": components["headers"]["RetryAfter"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                502: components["responses"]["Error"];
                504: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Chat with an application (whole answer); the same as POST /api/v1/chat
         * @description Sends `message` to the application's model on behalf of its owner (the owner's plan, provider keys and quota apply). Without `conversationId` a conversation is started (source `api`, or `widget`); with it, a conversation started by this same key continues.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description `widget` when the embeddable widget calls: its conversations are counted as widget traffic (source `widget`) instead of `api`. */
                    "X-Client"?: "widget";
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PublicChatRequest"];
                };
            };
            responses: {
                /** @description The whole answer */
                200: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        "X-Conversation-Id": components["headers"]["XConversationId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PublicAnswer"];
                    };
                };
                /** @description Validation error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing, unknown or revoked API key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The application owner's plan allows no more (or no platform usage on Free) */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Application outside the key's scope, or a browser origin the application does not allow */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                424: components["responses"]["FailedDependency"];
                /** @description Past the key's requests per minute */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        "Retry-After": components["headers"]["RetryAfter"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                502: components["responses"]["Error"];
                504: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Chat with an application, streamed as Server-Sent Events
         * @description Sends `message` to the application's model on behalf of its owner (the owner's plan, provider keys and quota apply). Without `conversationId` a conversation is started (source `api`, or `widget`); with it, a conversation started by this same key continues. The stream carries `data:` lines `{type:'chunk',content}` then `{type:'done',fullResponse,conversationId,messageId,usage,provider,model,sources?}`; a failure after the first event ends it with `{type:'error',message,statusCode}` (424 when the provider refused the owner's provider key). Refusals before the first event are the JSON error body.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description `widget` when the embeddable widget calls: its conversations are counted as widget traffic (source `widget`) instead of `api`. */
                    "X-Client"?: "widget";
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PublicChatRequest"];
                };
            };
            responses: {
                /** @description SSE stream */
                200: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        "X-Conversation-Id": components["headers"]["XConversationId"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Validation error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing, unknown or revoked API key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The application owner's plan allows no more (or no platform usage on Free) */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Application outside the key's scope, or a browser origin the application does not allow */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                424: components["responses"]["FailedDependency"];
                /** @description Past the key's requests per minute */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        "Retry-After": components["headers"]["RetryAfter"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                502: components["responses"]["Error"];
                504: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/app": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The application of the key, as the widget presents it
         * @description A key for one application answers with it. A key for all of its owner's applications names one with `?applicationId=` (400 without).
         */
        get: {
            parameters: {
                query?: {
                    applicationId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Application */
                200: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PublicApplication"];
                    };
                };
                /** @description Validation error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing, unknown or revoked API key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Application outside the key's scope, or a browser origin the application does not allow */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Past the key's requests per minute */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        "Retry-After": components["headers"]["RetryAfter"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/app/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An application in the key's scope, by slug */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Application */
                200: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PublicApplication"];
                    };
                };
                /** @description Missing, unknown or revoked API key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Application outside the key's scope, or a browser origin the application does not allow */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Past the key's requests per minute */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        "Retry-After": components["headers"]["RetryAfter"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The history of a conversation this same key started
         * @description Conversations of other keys (even of the same owner) and dashboard conversations answer 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Conversation */
                200: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PublicConversation"];
                    };
                };
                /** @description Missing, unknown or revoked API key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Application outside the key's scope, or a browser origin the application does not allow */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Past the key's requests per minute */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        "Retry-After": components["headers"]["RetryAfter"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/public/widget.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The embeddable chat widget script
         * @description Paste `<script src="{base_url}/public/widget.js" data-app-id="..." data-api-key="..." async></script>`; optional `data-theme`, `data-position`, `data-title`, `data-greeting`, `data-placeholder`. Served with CORS `*`, `Cache-Control: public, max-age=300` and an ETag. The page's origin must be listed in the application's `allowedOrigins`: the public API answers CORS only for listed origins and refuses (403) browser requests from others; the widget then asks GET /public/widget-access and tells the site owner to add the origin. Answers that drew on the application's documents show their sources as citations.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description JavaScript */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/javascript": string;
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/public/widget-access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * May this site use the application? (for the widget)
         * @description Answers whether the asking page's origin is in the application's `allowedOrigins`, without an API key and readable from any origin (CORS `*`, no preflight). The widget asks it when its other requests are refused, to tell the site owner to add the origin instead of reporting a network failure. An unknown application answers like an unlisted origin.
         */
        get: {
            parameters: {
                query: {
                    applicationId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The verdict for the asking origin */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WidgetAccess"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/github": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign in with GitHub
         * @description Redirects to GitHub with `state` and a PKCE challenge (S256). 404 when GitHub sign-in is not configured.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description To GitHub's authorization page */
                302: {
                    headers: {
                        /** @description Where the browser goes next */
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                404: components["responses"]["Error"];
                429: components["responses"]["Error"];
                502: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/github/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * GitHub sends the browser back here
         * @description Register this address as the callback URL of the GitHub OAuth app. Exchanges the code (once), reads the e-mail GitHub has verified, and signs in the account linked to this GitHub identity, else the account with that verified e-mail (linking it), else a new account. An unverified e-mail never links to an existing account (409) nor makes one (403). Members of a team that enforces SSO get a 403 naming their SSO sign-in.
         */
        get: {
            parameters: {
                query?: {
                    /** @description The authorization code the provider issued */
                    code?: string;
                    /** @description The state the platform sent */
                    state?: string;
                    /** @description Set by the provider when the person refused */
                    error?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Signed in: the browser goes to OAUTH_SUCCESS_URL with `code`, a one-time code for `POST /api/auth/oauth/exchange` (valid one minute) */
                302: {
                    headers: {
                        /** @description OAUTH_SUCCESS_URL with the one-time code */
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                429: components["responses"]["Error"];
                502: components["responses"]["Error"];
                504: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/google": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign in with Google
         * @description Redirects to Google with `state` and a PKCE challenge (S256). 404 when Google sign-in is not configured.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description To Google's authorization page */
                302: {
                    headers: {
                        /** @description Where the browser goes next */
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                404: components["responses"]["Error"];
                429: components["responses"]["Error"];
                502: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/google/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Google sends the browser back here
         * @description Register this address as the callback URL of the Google OAuth app. Exchanges the code (once), reads the e-mail Google has verified, and signs in the account linked to this Google identity, else the account with that verified e-mail (linking it), else a new account. An unverified e-mail never links to an existing account (409) nor makes one (403). Members of a team that enforces SSO get a 403 naming their SSO sign-in.
         */
        get: {
            parameters: {
                query?: {
                    /** @description The authorization code the provider issued */
                    code?: string;
                    /** @description The state the platform sent */
                    state?: string;
                    /** @description Set by the provider when the person refused */
                    error?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Signed in: the browser goes to OAUTH_SUCCESS_URL with `code`, a one-time code for `POST /api/auth/oauth/exchange` (valid one minute) */
                302: {
                    headers: {
                        /** @description OAUTH_SUCCESS_URL with the one-time code */
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
                429: components["responses"]["Error"];
                502: components["responses"]["Error"];
                504: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oauth/exchange": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange the one-time code of an OAuth or SSO sign-in for tokens
         * @description The code from the redirect to OAUTH_SUCCESS_URL works once, within a minute; tokens are never put in a URL.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description `cookie` (the console): the refresh token is set as the HttpOnly, SameSite=Strict cookie `ap_refresh` and left out of the body */
                    "X-AP-Session"?: "cookie";
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example f3a9c1Jq0u7Zr2mH6wYk8pXe4bLs5dNv1tGo9aRcE2U */
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Signed in, as login answers */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SsoSession"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                429: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/me/identities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sign-in identities linked to your account */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Identities */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            hasPassword?: boolean;
                            identities?: components["schemas"]["Identity"][];
                        };
                    };
                };
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/me/identities/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink an identity
         * @description 409 when it is your only way to sign in (no password and no other identity).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Unlinked */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sso/{teamSlug}/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start single sign-on for a team
         * @description Redirects to the team's identity provider (OIDC authorization request with PKCE, or a SAML AuthnRequest over HTTP-Redirect).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamSlug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description To the identity provider */
                302: {
                    headers: {
                        /** @description Where the browser goes next */
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                404: components["responses"]["Error"];
                429: components["responses"]["Error"];
                502: components["responses"]["Error"];
                504: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sso/{teamSlug}/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's SSO connection (Owner and Admins) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamSlug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Connection (never the client secret) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SsoConfig"];
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /**
         * Create or replace the team's SSO connection (Owner and Admins)
         * @description One connection per team. OIDC issuers and SAML SSO URLs must be https. The OIDC client secret is stored encrypted and never shown again.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamSlug: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SsoConfigInput"];
                };
            };
            responses: {
                /** @description Saved */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SsoConfig"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        /**
         * Remove the team's SSO connection (Owner and Admins)
         * @description Identities linked through it are removed too; enforcement ends.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamSlug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sso/oidc/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OIDC redirect URI: the identity provider sends the browser back here
         * @description Register this address as the redirect URI. Verifies the state (once), the code with PKCE, the id token and its nonce; applies the allowed domains; signs in or provisions the account and its team membership.
         */
        get: {
            parameters: {
                query?: {
                    /** @description The authorization code the provider issued */
                    code?: string;
                    /** @description The state the platform sent */
                    state?: string;
                    /** @description Set by the provider when the person refused */
                    error?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Signed in: the browser goes to OAUTH_SUCCESS_URL with `code`, a one-time code for `POST /api/auth/oauth/exchange` (valid one minute) */
                302: {
                    headers: {
                        /** @description OAUTH_SUCCESS_URL with the one-time code */
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                409: components["responses"]["Error"];
                429: components["responses"]["Error"];
                502: components["responses"]["Error"];
                504: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sso/saml/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * SAML assertion consumer service (HTTP-POST binding)
         * @description Register this address as the ACS URL. Refuses XML with a DOCTYPE (400), a response not signed by the configured certificate, more than one assertion (signature wrapping), another audience or recipient, an expired assertion, a response to another or an already finished sign-in, and a replayed assertion (401).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        /**
                         * @description The base64 Response
                         * @example PHNhbWxwOlJlc3BvbnNlIHhtbG5zOnNhbWxwPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6cHJvdG9jb2wiIC4uLg==
                         */
                        SAMLResponse: string;
                        /** @example Zr0B7eYw2uPl6dHs4aVtNm8xQcq3J0mWQ8x9n2f1cKk */
                        RelayState: string;
                    };
                };
            };
            responses: {
                /** @description Signed in: the browser goes to OAUTH_SUCCESS_URL with `code`, a one-time code for `POST /api/auth/oauth/exchange` (valid one minute) */
                302: {
                    headers: {
                        /** @description OAUTH_SUCCESS_URL with the one-time code */
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                409: components["responses"]["Error"];
                413: components["responses"]["Error"];
                415: components["responses"]["Error"];
                429: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sso/saml/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * SAML assertion consumer service (HTTP-POST binding) (short address)
         * @description Register this address as the ACS URL. Refuses XML with a DOCTYPE (400), a response not signed by the configured certificate, more than one assertion (signature wrapping), another audience or recipient, an expired assertion, a response to another or an already finished sign-in, and a replayed assertion (401).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        /**
                         * @description The base64 Response
                         * @example PHNhbWxwOlJlc3BvbnNlIHhtbG5zOnNhbWxwPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6cHJvdG9jb2wiIC4uLg==
                         */
                        SAMLResponse: string;
                        /** @example Zr0B7eYw2uPl6dHs4aVtNm8xQcq3J0mWQ8x9n2f1cKk */
                        RelayState: string;
                    };
                };
            };
            responses: {
                /** @description Signed in: the browser goes to OAUTH_SUCCESS_URL with `code`, a one-time code for `POST /api/auth/oauth/exchange` (valid one minute) */
                302: {
                    headers: {
                        /** @description OAUTH_SUCCESS_URL with the one-time code */
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                409: components["responses"]["Error"];
                413: components["responses"]["Error"];
                415: components["responses"]["Error"];
                429: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sso/saml/metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The platform's SAML service provider metadata
         * @description Its entityID is the audience of every team's assertions; identity providers that import metadata read the ACS URL from it.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description SAML metadata */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/samlmetadata+xml": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/studio/draft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The studio draft
         * @description The application's draft (the live configuration until first saved), what end users get now and where each value comes from, and the settings' ranges. Any role that sees the application.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Draft */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StudioDraft"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /**
         * Save the studio draft
         * @description The fields given replace the draft's; end users keep the published version. Provider, model and settings are validated as a whole (a new provider without a model takes its default model). Roles that may change model configs.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The system prompt; `{{name}}` placeholders are filled from `variables`
                         * @example You are {{botName}}, the support assistant of Acme. Answer in two sentences.
                         */
                        instructions?: string;
                        /** @description A value for each placeholder (at most 50, each at most 2000 characters): what end users get; the debug chat may give others */
                        variables?: {
                            [key: string]: string;
                        };
                        /**
                         * @description provider_a, provider_b, provider_c, provider_d, or the name of one of the connections of the application's owner (docs/connections.md).
                         * @example provider_a
                         */
                        provider?: string;
                        /** @example gpt-4o-mini */
                        modelId?: string;
                        settings?: components["schemas"]["StudioSettings"];
                        /** @example Hello! Ask me anything about your order. */
                        openingMessage?: string;
                        suggestedQuestions?: string[];
                        /** @description This draft's own knowledge retrieval settings (the fields given, the others at their defaults); null: back to the application's */
                        retrieval?: {
                            /**
                             * @description null: the application's retrieval.mode
                             * @enum {string|null}
                             */
                            mode?: "hybrid" | "vector" | "keyword" | null;
                            /**
                             * @description Chunks at most in the prompt and the sources
                             * @default 8
                             */
                            topK?: number;
                            /** @description The lowest cosine score a chunk needs to reach the prompt and the sources; null: each embedder's own floor */
                            scoreThreshold?: number | null;
                            /** @default false */
                            rerank?: boolean;
                        } | null;
                    };
                };
            };
            responses: {
                /** @description Draft */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StudioDraft"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/studio/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish the draft
         * @description The saved draft becomes what end users get: the application's default model config takes its provider, model and settings, with the instructions rendered with the variables' values as its system prompt (a config named Studio is created when there is none), and the draft is stored as the next numbered, immutable version. A placeholder without a value answers 400 naming it (variables.<name>).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Shorter answers */
                        note?: string;
                    };
                };
            };
            responses: {
                /** @description Published version */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StudioVersion"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/studio/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Published versions
         * @description Newest first.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Page */
                200: {
                    headers: {
                        /** @description How many there are in all */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StudioVersion"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/studio/versions/{number}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One published version */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                    /** @description A version number (1, 2, ...) */
                    number: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Version */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StudioVersion"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/studio/versions/{number}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a version into the draft
         * @description The version's configuration becomes the draft (as Dify's restore does); end users keep the live version until the draft is published.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                    /** @description A version number (1, 2, ...) */
                    number: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Draft */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StudioDraft"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/studio/versions/{number}/ab-test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an A/B test from a version
         * @description The version becomes an active A/B version of the application's default model config, taking trafficPercent of new conversations; 409 before anything is published or when the label Studio version <n> exists.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                    /** @description A version number (1, 2, ...) */
                    number: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        trafficPercent: number;
                    };
                };
            };
            responses: {
                /** @description The model-config version */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ModelConfigVersion"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/studio/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compare two configurations field by field
         * @description Each side is a version number or draft; from defaults to the latest version, to to the draft.
         */
        get: {
            parameters: {
                query?: {
                    from?: string;
                    to?: string;
                };
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Diff */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StudioDiff"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/studio/debug/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Debug chat on the draft
         * @description A chat turn with the saved draft, the unsaved changes in config laid over it, and the variables' values given, streamed as the conversations' stream. The same policies apply (keys and quota, knowledge, tools); the draft takes the model config's place, so end users and A/B metrics are untouched. Without conversationId a conversation titled Studio: ... is started; the done event carries its id.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    appId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Who are you? */
                        content: string;
                        /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
                        conversationId?: string;
                        variables?: {
                            [key: string]: string;
                        };
                        /** @description Unsaved changes, as the draft's PUT body */
                        config?: {
                            /**
                             * @description The system prompt; `{{name}}` placeholders are filled from `variables`
                             * @example You are {{botName}}, the support assistant of Acme. Answer in two sentences.
                             */
                            instructions?: string;
                            /** @description A value for each placeholder (at most 50, each at most 2000 characters): what end users get; the debug chat may give others */
                            variables?: {
                                [key: string]: string;
                            };
                            /**
                             * @description provider_a, provider_b, provider_c, provider_d, or the name of one of the connections of the application's owner (docs/connections.md).
                             * @example provider_a
                             */
                            provider?: string;
                            /** @example gpt-4o-mini */
                            modelId?: string;
                            settings?: components["schemas"]["StudioSettings"];
                            /** @example Hello! Ask me anything about your order. */
                            openingMessage?: string;
                            suggestedQuestions?: string[];
                        };
                    };
                };
            };
            responses: {
                /** @description Server-Sent Events */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": components["schemas"]["StreamEvent"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                402: components["responses"]["Error"];
                404: components["responses"]["Error"];
                424: components["responses"]["FailedDependency"];
                429: components["responses"]["Error"];
                502: components["responses"]["Error"];
                503: components["responses"]["Error"];
                504: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The teams you belong to, with your role in each, paged
         * @description Newest first.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Teams */
                200: {
                    headers: {
                        /** @description How many there are in all */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Create a team
         * @description You become its one Owner.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Support Crew */
                        name: string;
                        /**
                         * @description Unique across the platform; made from the name when absent
                         * @example support-crew
                         */
                        slug?: string;
                        /** @example The people behind the support bot */
                        description?: string;
                        settings?: components["schemas"]["TeamSettings"];
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation
         * @description With the token mailed to you. The invitation's address must be your account's (403); an unknown token is a 404, a used one or an invitation into a team you are already in a 409, an expired one a 400.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example q3Yl0tqv2m2b8Xl6a1kA0zX9PqkJb3m3pWwq4mZl0aQ */
                        token: string;
                    };
                };
            };
            responses: {
                /** @description You joined the team */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A team you belong to
         * @description Any role. Anybody else gets a 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The team */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /**
         * Change a team's name, slug, description or settings
         * @description Admins and the Owner.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Support Crew */
                        name?: string;
                        /**
                         * @description Unique across the platform; made from the name when absent
                         * @example support-crew
                         */
                        slug?: string;
                        /** @example The people behind the support bot */
                        description?: string;
                        settings?: components["schemas"]["TeamSettings"];
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        post?: never;
        /**
         * Delete a team
         * @description The Owner only, once no application belongs to it (409 until they are moved or deleted).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The team's members, the Owner first, paged
         * @description Any role.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Members */
                200: {
                    headers: {
                        /** @description How many there are in all */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TeamMember"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/{id}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a member's role
         * @description An Admin changes Members and Viewers to Member or Viewer; the Owner anyone else to any role below Owner. The Owner's own role changes only by a transfer (409); `owner` is refused (400).
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                    /** @description The member's user id */
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @example member
                         * @enum {string}
                         */
                        role: "owner" | "admin" | "member" | "viewer";
                    };
                };
            };
            responses: {
                /** @description Changed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TeamMember"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        post?: never;
        /**
         * Remove a member, or leave (your own id)
         * @description An Admin removes Members and Viewers; the Owner anyone else. The Owner cannot be removed nor leave without a transfer (409).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                    /** @description The member's user id */
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/{id}/leave": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Leave the team
         * @description Any role but the Owner, who must transfer the ownership first (409).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Left */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/{id}/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Transfer the ownership to another member
         * @description The Owner only. The previous Owner stays as an Admin; the team's applications become the new Owner's (their plan and quota apply).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @example 7c9e6679-7425-40de-944b-e07fc1f90ae7
                         */
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Transferred */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/{id}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The team's invitations, newest first, paged
         * @description Admins and the Owner. Tokens are never shown.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Invitations */
                200: {
                    headers: {
                        /** @description How many there are in all */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TeamInvitation"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Invite someone by e-mail
         * @description Admins and the Owner (Members too when the team's settings allow it). Nobody invites above what they manage: an Admin invites Members and Viewers. A single-use token, valid seven days, is mailed; only its digest is stored. Inviting a member is a 409.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: email
                         * @example grace@example.com
                         */
                        email: string;
                        /**
                         * @description Member when absent
                         * @example member
                         * @enum {string}
                         */
                        role?: "admin" | "member" | "viewer";
                    };
                };
            };
            responses: {
                /** @description Invited */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TeamInvitation"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/{id}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Withdraw an invitation
         * @description Admins and the Owner; its token stops working.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                    /** @description The invitation's id */
                    invitationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Withdrawn */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/{id}/invitations/{invitationId}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an invitation again
         * @description Admins and the Owner, for the roles they may manage. The same pending invitation (address, role) is mailed again with a fresh single-use token valid seven more days; the previous token stops working (only digests are stored). An expired invitation is renewed this way. An accepted invitation is a 409.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                    /** @description The invitation's id */
                    invitationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Sent again, with its new expiry */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TeamInvitation"];
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/{id}/provider-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The team's own provider keys
         * @description Admins and the Owner. Hints only.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Keys, in provider order */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TeamProviderKey"][];
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/{id}/provider-keys/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Save (or replace) the team's key for a provider
         * @description Admins and the Owner. Stored sealed, bound to the team and provider. With the shared provider keys setting on, it answers the team's applications' turns on that provider and bypasses the Owner's token quota.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                    /** @description provider_a (OpenAI), provider_b (Anthropic), provider_c (Google Gemini) or provider_d (Hugging Face); anything else is a 400. */
                    provider: "provider_a" | "provider_b" | "provider_c" | "provider_d";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The raw key; printable characters without spaces
                         * @example sk-proj-2vQ8wX4yZ6aB1cD3eF5gH7jK9mN0pQrS
                         */
                        apiKey: string;
                    };
                };
            };
            responses: {
                /** @description Saved */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TeamProviderKey"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        /**
         * Delete the team's key for a provider
         * @description Admins and the Owner.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The team's id */
                    id: string;
                    /** @description provider_a (OpenAI), provider_b (Anthropic), provider_c (Google Gemini) or provider_d (Hugging Face); anything else is a 400. */
                    provider: "provider_a" | "provider_b" | "provider_c" | "provider_d";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/themes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the presets, then the caller's own and the published themes */
        get: {
            parameters: {
                query?: {
                    /** @description from 1 */
                    page?: string;
                    /** @description 1-100, default 20 */
                    limit?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Themes (X-Total-Count) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Theme"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        /** Create a theme, optionally extending a preset or another usable theme */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description primary, secondary, accent, background, surface, text, textMuted, border, success, warning, error, info, userBubble, assistantBubble: #hex, rgb() or hsl() */
                        colors?: {
                            [key: string]: string;
                        };
                        /** @description fontFamily, headingFontFamily, fontSize (CSS length), lineHeight (number or length) */
                        typography?: {
                            [key: string]: string;
                        };
                        /** @description sidebarPosition (left|right), maxWidth, borderRadius, spacing (CSS lengths), density (compact|comfortable|spacious) */
                        layout?: {
                            [key: string]: string;
                        };
                        /** @description custom variables, emitted as --ap-custom-<kebab-name> */
                        custom?: {
                            [key: string]: string;
                        };
                    } & {
                        /** @example Support Bot */
                        name: string;
                        /** @example Answers questions about orders and returns */
                        description?: string;
                        /** @example dark */
                        extend?: string;
                        published?: boolean;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Theme"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/themes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One theme: a preset, an own or a published theme */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Theme */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Theme"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{id}/theme.css": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The application's resolved theme (theme, customization, branding) as CSS custom properties; public, cacheable, ETag */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Stylesheet */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/css": string;
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The application's tools */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Tools, by name */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Tool"][];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /** Add a tool (name unique per application; schema and source checked) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example get_weather */
                        name: string;
                        /** @example The current weather of a city */
                        description: string;
                        /**
                         * @description JSON Schema (draft-07) of the arguments, an object at the top, at most 16 KB; checked with Ajv in strict mode on save (unknown keywords refused).
                         * @example {
                         *       "type": "object",
                         *       "properties": {
                         *         "city": {
                         *           "type": "string",
                         *           "enum": [
                         *             "Lisbon",
                         *             "Oslo"
                         *           ]
                         *         }
                         *       },
                         *       "required": [
                         *         "city"
                         *       ]
                         *     }
                         */
                        parameters?: Record<string, never>;
                        source: components["schemas"]["ToolSource"];
                        /** @default 10000 */
                        timeoutMs?: number;
                        /** @description Name → value (a single line); on change, null removes one and names left out keep their value. Stored encrypted; answers show the names only. */
                        secrets?: {
                            [key: string]: string | null;
                        };
                    };
                };
            };
            responses: {
                /** @description Tool */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Tool"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/tools/{toolId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tool */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Tool id */
                    toolId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Tool */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Tool"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /** Change a tool; the fields given are checked as on create */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Tool id */
                    toolId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example get_weather */
                        name?: string;
                        /** @example The current weather of a city */
                        description?: string;
                        /**
                         * @description JSON Schema (draft-07) of the arguments, an object at the top, at most 16 KB; checked with Ajv in strict mode on save (unknown keywords refused).
                         * @example {
                         *       "type": "object",
                         *       "properties": {
                         *         "city": {
                         *           "type": "string",
                         *           "enum": [
                         *             "Lisbon",
                         *             "Oslo"
                         *           ]
                         *         }
                         *       },
                         *       "required": [
                         *         "city"
                         *       ]
                         *     }
                         */
                        parameters?: Record<string, never>;
                        source?: components["schemas"]["ToolSource"];
                        /** @default 10000 */
                        timeoutMs?: number;
                        /** @description Name → value (a single line); on change, null removes one and names left out keep their value. Stored encrypted; answers show the names only. */
                        secrets?: {
                            [key: string]: string | null;
                        };
                    };
                };
            };
            responses: {
                /** @description Tool */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Tool"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        post?: never;
        /** Remove a tool */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description Tool id */
                    toolId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/agent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The application's agent settings (the defaults until saved) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Agent settings */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AgentSettings"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /** Change the agent settings; the fields given replace the current ones */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Names of the application's tools offered to the model. */
                        enabledTools?: string[];
                        toolChoice?: ("auto" | "none" | "required") | {
                            /** @example get_weather */
                            name: string;
                        };
                        /** @default 5 */
                        maxToolRounds?: number;
                        /** @default 60000 */
                        timeBudgetMs?: number;
                        /** @default true */
                        parallelCalls?: boolean;
                    };
                };
            };
            responses: {
                /** @description Agent settings */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AgentSettings"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Not served: the server is stateless (no server-sent stream) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                401: components["responses"]["Error"];
                405: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * The application as an MCP server (Streamable HTTP, stateless): JSON-RPC requests answered as JSON. Tools: chat, search_knowledge and the workflows marked as tools (run_workflow tools).
         * @description Authenticate with the application's API key in X-API-Key or as Authorization: Bearer <api key>. Every request counts against the key's rate limit; chat calls count against the owner's quota like any chat. Clients send Accept: application/json, text/event-stream.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The application, when the key covers every application of its owner (or ?applicationId=). */
                    "X-Application-Id"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        id?: number | string;
                        /**
                         * @description initialize, tools/list, tools/call, ping, notifications/initialized
                         * @example tools/call
                         */
                        method: string;
                        /**
                         * @example {
                         *       "name": "chat",
                         *       "arguments": {
                         *         "message": "What are your opening hours?"
                         *       }
                         *     }
                         */
                        params?: Record<string, never>;
                    };
                };
            };
            responses: {
                /** @description JSON-RPC answer (a tool's failure is a result with isError: true) */
                200: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @constant */
                            jsonrpc?: "2.0";
                            /** @example 1 */
                            id?: number;
                            /**
                             * @example {
                             *       "content": [
                             *         {
                             *           "type": "text",
                             *           "text": "We open at 9."
                             *         }
                             *       ],
                             *       "isError": false
                             *     }
                             */
                            result?: Record<string, never>;
                        };
                    };
                };
                /** @description A notification was accepted */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                406: components["responses"]["Error"];
                /** @description Past the key's requests per minute */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["XRateLimitLimit"];
                        "X-RateLimit-Remaining": components["headers"]["XRateLimitRemaining"];
                        "X-RateLimit-Reset": components["headers"]["XRateLimitReset"];
                        "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                        RateLimit: components["headers"]["RateLimit"];
                        "Retry-After": components["headers"]["RetryAfter"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Not served: the server is stateless (no sessions to end) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                401: components["responses"]["Error"];
                405: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/tools/available": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every tool the agent settings may enable: the application's own, its active plugins', its MCP servers' */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Tools by source, in the order names are given out */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AvailableTool"][];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/mcp-servers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The application's MCP servers */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description MCP servers */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpServer"][];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Connect an MCP server (its address checked, its secrets sealed, its tools listed)
         * @description A server that does not answer yet is kept, with the reason in lastError; refresh lists its tools later.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Unique per application; prefixes its tools' names (docs_search)
                         * @example docs
                         */
                        name: string;
                        /**
                         * @description https (http only with WEBHOOKS_ALLOW_HTTP), no credentials; refused when the host is or resolves to a loopback, private, link-local (169.254.169.254) or other reserved address, unless WEBHOOKS_ALLOWED_PRIVATE_CIDRS holds it
                         * @example https://mcp.example.com/mcp
                         */
                        url: string;
                        /**
                         * @description auto: Streamable HTTP, then the legacy HTTP+SSE transport if the server does not speak it
                         * @default auto
                         * @enum {string}
                         */
                        transport?: "auto" | "streamable-http" | "sse";
                        /**
                         * @description Header name → value: a value pasted as is ("Bearer abc…") or one holding {{secrets.NAME}}, filled when connecting only. Every value is sealed at rest (re-sealed by npm run keys:rotate), never answered (headerNames lists the names set) or exported. Host, Cookie, X-API-Key, Content-Length, Connection and Transfer-Encoding may not be set.
                         * @example {
                         *       "Authorization": "Bearer {{secrets.TOKEN}}"
                         *     }
                         */
                        headers?: {
                            [key: string]: string;
                        };
                        /** @description Name → value (a single line); on change, null removes one and names left out keep their value. Sealed at rest (re-sealed by npm run keys:rotate), never answered or exported. */
                        secrets?: {
                            [key: string]: string | null;
                        };
                        /**
                         * @description One call's time limit
                         * @default 10000
                         */
                        timeoutMs?: number;
                    };
                };
            };
            responses: {
                /** @description MCP server */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpServer"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/mcp-servers/{serverId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An MCP server */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description MCP server id */
                    serverId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description MCP server */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpServer"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /** Change an MCP server (a new address, transport or credentials list its tools again) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description MCP server id */
                    serverId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Unique per application; prefixes its tools' names (docs_search)
                         * @example docs
                         */
                        name?: string;
                        /**
                         * @description https (http only with WEBHOOKS_ALLOW_HTTP), no credentials; refused when the host is or resolves to a loopback, private, link-local (169.254.169.254) or other reserved address, unless WEBHOOKS_ALLOWED_PRIVATE_CIDRS holds it
                         * @example https://mcp.example.com/mcp
                         */
                        url?: string;
                        /**
                         * @description auto: Streamable HTTP, then the legacy HTTP+SSE transport if the server does not speak it
                         * @default auto
                         * @enum {string}
                         */
                        transport?: "auto" | "streamable-http" | "sse";
                        /**
                         * @description Header name → value: a value pasted as is ("Bearer abc…") or one holding {{secrets.NAME}}, filled when connecting only. Every value is sealed at rest (re-sealed by npm run keys:rotate), never answered (headerNames lists the names set) or exported. On change, null removes a header, a name differing only in case replaces it, and names left out keep their value. Host, Cookie, X-API-Key, Content-Length, Connection and Transfer-Encoding may not be set.
                         * @example {
                         *       "Authorization": "Bearer {{secrets.TOKEN}}"
                         *     }
                         */
                        headers?: {
                            [key: string]: string | null;
                        };
                        /** @description Name → value (a single line); on change, null removes one and names left out keep their value. Sealed at rest (re-sealed by npm run keys:rotate), never answered or exported. */
                        secrets?: {
                            [key: string]: string | null;
                        };
                        /**
                         * @description One call's time limit
                         * @default 10000
                         */
                        timeoutMs?: number;
                    };
                };
            };
            responses: {
                /** @description MCP server */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpServer"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        post?: never;
        /** Disconnect an MCP server */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description MCP server id */
                    serverId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Disconnected */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/applications/{appId}/mcp-servers/{serverId}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** List the server's tools again (the cached list turns read) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Application id */
                    appId: string;
                    /** @description MCP server id */
                    serverId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description MCP server with its tools */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpServer"];
                    };
                };
                401: components["responses"]["Error"];
                403: components["responses"]["Error"];
                404: components["responses"]["Error"];
                502: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your uploads, newest first */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Uploads */
                200: {
                    headers: {
                        /** @description How many there are in all */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Upload"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        /** Upload a file (at most 10 MB; images, JSON, ZIP, text, Markdown, checked by content) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /** Format: binary */
                        file: string;
                    };
                };
            };
            responses: {
                /** @description Stored */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Upload"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                413: components["responses"]["Error"];
                415: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An upload's metadata */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Upload */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Upload"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        /** Delete an upload and its file */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The file itself, as an attachment (Content-Disposition: attachment, X-Content-Type-Options: nosniff) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The bytes, with the type found when uploaded */
                200: {
                    headers: {
                        "Content-Disposition"?: string;
                        "X-Content-Type-Options"?: "nosniff";
                        [name: string]: unknown;
                    };
                    content: {
                        "application/octet-stream": string;
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your profile */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description User */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                401: components["responses"]["Error"];
            };
        };
        /** Update profile fields (displayName); role, e-mail and password are refused */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Ada Lovelace */
                        displayName?: string;
                    };
                };
            };
            responses: {
                /** @description User */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        post?: never;
        /**
         * Delete your account and everything it owns
         * @description The Owner of a team must transfer its ownership or delete it first (409).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example correct horse battery staple */
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your webhooks, newest first (never the secrets) */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    /** @description A team's id (only its resources), `personal` (only your own) or absent (both) */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Webhooks */
                200: {
                    headers: {
                        /** @description Items in all pages */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Webhook"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Register a webhook
         * @description The URL must be https (http only with WEBHOOKS_ALLOW_HTTP) and resolve only to public addresses. The signing secret is returned once.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example https://hooks.example.com/platform */
                        url: string;
                        events: ("message.received" | "message.completed" | "conversation.started" | "conversation.archived" | "application.created" | "application.deleted" | "plugin.activated" | "plugin.deactivated" | "api_key.revoked" | "usage.limit_reached" | "subscription.updated" | "workflow.event" | "experiment.decided")[];
                        /** Format: uuid */
                        applicationId?: string | null;
                        /** @example Answers questions about orders and returns */
                        description?: string;
                    };
                };
            };
            responses: {
                /** @description Created (Cache-Control: no-store) */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreatedWebhook"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook, without its secret
         * @description Its owner, or any member of the team of its application. Another user's webhook is a 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The webhook */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /** Change a webhook's URL, events, description or enabled flag */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example https://hooks.example.com/platform */
                        url?: string;
                        events?: ("message.received" | "message.completed" | "conversation.started" | "conversation.archived" | "application.created" | "application.deleted" | "plugin.activated" | "plugin.deactivated" | "api_key.revoked" | "usage.limit_reached" | "subscription.updated" | "workflow.event" | "experiment.decided")[];
                        enabled?: boolean;
                        /** @example Answers questions about orders and returns */
                        description?: string;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        /** Delete a webhook, its deliveries and log */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the signing secret (returned once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The new secret */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id?: string;
                            /** @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw */
                            secret?: string;
                        };
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a signed webhook.test ping, delivered like any event */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
                            eventId?: string;
                            /** Format: uuid */
                            deliveryId?: string;
                        };
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The delivery log: every attempt, newest first */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Attempts */
                200: {
                    headers: {
                        /** @description Items in all pages */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookDelivery"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivery again now (same webhook-id and body) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    deliveryId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
                            deliveryId?: string;
                            /** @enum {string} */
                            status?: "pending";
                        };
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your workflows */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    applicationId?: string;
                    /** @description A team's id (only its resources), `personal` (only your own) or absent (both) */
                    teamId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Workflows */
                200: {
                    headers: {
                        /** @description Items in all pages */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workflow"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        /**
         * Create a workflow
         * @description The graph is checked whole: a 400 names the first step at fault (unknown kind, missing field, a link or reference to a step that does not exist or cannot run before, a cycle without a bounded loop, a host not in allowedHosts, a refused condition expression).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: uuid */
                        applicationId: string;
                        /** @example Qualify lead */
                        name: string;
                        /** @example Scores inbound leads */
                        description?: string;
                        steps: components["schemas"]["WorkflowStep"][];
                        allowedHosts?: string[];
                        limits?: components["schemas"]["WorkflowLimits"];
                        trigger?: components["schemas"]["WorkflowTrigger"];
                        /** @description Name → value (a single line); on change, null removes one and names left out keep their value. Stored encrypted; answers show the names only. */
                        secrets?: {
                            [key: string]: string | null;
                        };
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workflow"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A run with each step's status, input, output, duration, error and tokens */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Run id */
                    runId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Run */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowRun"] & {
                            steps?: components["schemas"]["WorkflowRunStep"][];
                        };
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/runs/{runId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a queued or running run (the step in progress finishes; nothing after it runs) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Run id */
                    runId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Cancelled */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowRun"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                409: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workflow */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Workflow id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Workflow */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workflow"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        /** Change a workflow; a changed graph raises the version (runs keep the version they started with) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Workflow id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example Qualify lead */
                        name?: string;
                        /** @example Scores inbound leads */
                        description?: string;
                        steps?: components["schemas"]["WorkflowStep"][];
                        allowedHosts?: string[];
                        limits?: components["schemas"]["WorkflowLimits"];
                        trigger?: components["schemas"]["WorkflowTrigger"];
                        /** @description Name → value (a single line); on change, null removes one and names left out keep their value. Stored encrypted; answers show the names only. */
                        secrets?: {
                            [key: string]: string | null;
                        };
                    };
                };
            };
            responses: {
                /** @description Workflow */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workflow"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        post?: never;
        /** Delete a workflow and its runs */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Workflow id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{id}/trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a run
         * @description 202 with the run id; the run is queued instead while the workflow is paused.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Workflow id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /** @description Any JSON, read by {{input.<path>}} */
                        input?: unknown;
                    };
                };
            };
            responses: {
                /** @description Started */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            runId?: string;
                            /** @enum {string} */
                            status?: "queued" | "running";
                        };
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A workflow's runs, newest first */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path: {
                    /** @description Workflow id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Runs */
                200: {
                    headers: {
                        /** @description Items in all pages */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowRun"][];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause: triggers queue their runs until resumed */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Workflow id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Paused */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workflow"];
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume: the queued runs start in the order they were triggered */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Workflow id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Resumed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Workflow"] & {
                            released?: number;
                        };
                    };
                };
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The application templates shipped with the platform */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Templates */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApplicationTemplate"][];
                    };
                };
                401: components["responses"]["Error"];
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates/{id}/deploy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deploy a template
         * @description Creates the application with its model config, prompt, theme, workflows and example knowledge in one transaction, and answers with what it created.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /** @example Acme support */
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Deployed */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeployedTemplate"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                402: components["responses"]["Error"];
                404: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a workflow with an API key
         * @description The key must cover the workflow's application. With wait: true the answer waits for the run to end (up to timeoutMs, default 30000) and is 200 with the ended run; otherwise, or past the time, 202 with the run as it stands.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Workflow id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /** @description Any JSON */
                        input?: unknown;
                        wait?: boolean;
                        timeoutMs?: number;
                    };
                };
            };
            responses: {
                /** @description The run ended */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowRun"];
                    };
                };
                /** @description Started (or still running) */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowRun"];
                    };
                };
                400: components["responses"]["Error"];
                401: components["responses"]["Error"];
                404: components["responses"]["Error"];
                429: components["responses"]["Error"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            statusCode: number;
            /** @example How many days do I have to return a widget? */
            message: string;
            /** @example Bad Request */
            error: string;
            details?: {
                /** @example applicationId */
                path?: string;
                /** @example How many days do I have to return a widget? */
                message?: string;
            }[];
        };
        Health: {
            /** @enum {string} */
            status?: "healthy" | "degraded" | "down";
            /** @example core-api */
            service?: string;
            /** @example v2 */
            version?: string;
            uptimeSeconds?: number;
            /** Format: date-time */
            timestamp?: string;
            checks?: {
                [key: string]: Record<string, never>;
            };
        };
        /** @description One arm of the test: the config itself (the control) or one of its versions. */
        AbTestArm: {
            /**
             * @description `control`, or the version's id
             * @example control
             */
            arm: string;
            isControl: boolean;
            /**
             * @description The config's name for the control, the version's label otherwise
             * @example Warmer answers
             */
            label: string;
            isActive: boolean;
            trafficPercent: number;
            /** @description Observations of the goal since the test started (rated answers, or conversations for cost) */
            observations: number;
            /** @description The arm's mean with its always-valid confidence interval at the test's significance; null before its first observation */
            estimate: {
                estimate: number;
                low: number;
                high: number;
            } | null;
            /** @description The arm minus the control with its always-valid interval (challengers only; null until both arms hold 20 observations) */
            difference: {
                estimate: number;
                low: number;
                high: number;
                /** @enum {string} */
                verdict: "better" | "worse" | "equivalent" | "undecided";
            } | null;
            /**
             * @description The guardrail this arm breached (it was switched off)
             * @enum {string|null}
             */
            rolledBack: "error_rate" | "cost" | null;
        };
        AbTest: {
            /** @example 4a7c2e1d-8b3f-4c6a-9e2d-1f0b3a5c7d9e */
            id: string;
            /** @example 5d8a3f2e-1b4c-4e6f-9a7d-3c2b1e0f9a8b */
            configId: string;
            /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
            applicationId: string;
            /** @enum {string} */
            goal: "rating" | "thumbs_up_rate" | "cost_per_conversation" | "evaluator_score";
            /** @example null */
            evaluatorId: string | null;
            /**
             * @description The share of the arms' answers the evaluator scores (goal evaluator_score)
             * @example 0.2
             */
            sampleRate: number;
            /**
             * @description At most this many answers sampled for scoring in any hour
             * @example 60
             */
            samplesPerHour: number;
            /** @description The smallest difference worth detecting, in the goal's unit (stars, share of rated answers, US dollars per conversation, score) */
            minimumEffect: number;
            /** @description The accepted chance of a false decision, however often the test is looked at */
            significance: number;
            autoPromote: boolean;
            guardrails: ("error_rate" | "cost")[];
            /** @enum {string} */
            status: "running" | "winner" | "no_difference" | "promoted";
            /**
             * @description The recorded decision, or while running what the observations say now
             * @enum {string}
             */
            decision: "running" | "winner" | "no_difference";
            /**
             * @description `control` or a version id
             * @example 6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b
             */
            winner: string | null;
            /**
             * Format: date-time
             * @description Only answers from this moment on are observations
             */
            startedAt: string;
            /** Format: date-time */
            decidedAt: string | null;
            /** Format: date-time */
            promotedAt: string | null;
            /** @description Observations per arm at which a difference of the minimum effect is typically decided */
            expectedObservations: number | null;
            arms: components["schemas"]["AbTestArm"][];
        };
        AdminUser: {
            /** Format: uuid */
            id?: string;
            /** Format: email */
            email?: string;
            /** @example Ada Lovelace */
            displayName?: string;
            /**
             * @description The role the account acts with: ADMIN_EMAILS are admins whatever is stored.
             * @enum {string}
             */
            role?: "admin" | "developer" | "user";
            /** @enum {string} */
            storedRole?: "admin" | "developer" | "user";
            /** @enum {string} */
            plan?: "free" | "starter" | "pro" | "enterprise";
            disabled?: boolean;
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        Subscription: {
            /** @enum {string} */
            plan?: "free" | "starter" | "pro" | "enterprise";
            /** @enum {string} */
            status?: "active" | "past_due" | "canceled" | "trialing" | "incomplete";
            /**
             * @description The plan whose rules apply now (Free while canceled or incomplete)
             * @enum {string}
             */
            effectivePlan?: "free" | "starter" | "pro" | "enterprise";
            overageAllowed?: boolean;
            period?: {
                /**
                 * Format: date-time
                 * @example 2026-11-01T09:30:00.000Z
                 */
                start?: string;
                /**
                 * Format: date-time
                 * @example 2026-12-01T09:30:00.000Z
                 */
                end?: string;
            };
            /** @description Whether the user has a customer and a subscription at Stripe */
            billing?: {
                customer?: boolean;
                subscription?: boolean;
            };
        };
        AnalyticsFigures: {
            /** @description Conversations opened */
            conversations?: number;
            /** @description Messages sent and received */
            messages?: number;
            /** @description Users' messages of turns that reached a provider */
            messagesSent?: number;
            /** @description Answers, whole or interrupted */
            messagesReceived?: number;
            promptTokens?: number;
            completionTokens?: number;
            totalTokens?: number;
            /** @description From the price table; tokens of unpriced models are not in it */
            estimatedCostUsd?: number;
            /** @description Tokens of models the price table has no price for */
            unpricedTokens?: number;
            /** @description Turns the provider or engine failed */
            errors?: number;
            /** @description errors / messagesSent, 0 to 1 */
            errorRate?: number;
            /** @description Public API calls */
            apiCalls?: number;
            /** @description Widget loads reported by the widget */
            widgetLoads?: number;
        };
        AnalyticsOverview: {
            /**
             * Format: uuid
             * @description null: all of your applications
             */
            applicationId?: string | null;
            /** Format: date */
            from?: string;
            /** Format: date */
            to?: string;
            /**
             * Format: date
             * @description The date of the catalogue's list prices
             */
            pricesAsOf?: string;
            totals?: components["schemas"]["AnalyticsFigures"];
            byDay?: {
                /** Format: date */
                day?: string;
                /** @description Conversations opened */
                conversations?: number;
                /** @description Messages sent and received */
                messages?: number;
                /** @description Users' messages of turns that reached a provider */
                messagesSent?: number;
                /** @description Answers, whole or interrupted */
                messagesReceived?: number;
                promptTokens?: number;
                completionTokens?: number;
                totalTokens?: number;
                /** @description From the price table; tokens of unpriced models are not in it */
                estimatedCostUsd?: number;
                /** @description Tokens of models the price table has no price for */
                unpricedTokens?: number;
                /** @description Turns the provider or engine failed */
                errors?: number;
                /** @description errors / messagesSent, 0 to 1 */
                errorRate?: number;
                /** @description Public API calls */
                apiCalls?: number;
                /** @description Widget loads reported by the widget */
                widgetLoads?: number;
            }[];
            byProvider?: {
                /** @example provider_a */
                provider?: string;
                /** @description Messages sent and received */
                messages?: number;
                /** @description Users' messages of turns that reached a provider */
                messagesSent?: number;
                /** @description Answers, whole or interrupted */
                messagesReceived?: number;
                promptTokens?: number;
                completionTokens?: number;
                totalTokens?: number;
                /** @description From the price table; tokens of unpriced models are not in it */
                estimatedCostUsd?: number;
                /** @description Tokens of models the price table has no price for */
                unpricedTokens?: number;
                /** @description Turns the provider or engine failed */
                errors?: number;
                /** @description errors / messagesSent, 0 to 1 */
                errorRate?: number;
                /** @description Public API calls */
                apiCalls?: number;
                /** @description Widget loads reported by the widget */
                widgetLoads?: number;
            }[];
            bySource?: {
                /** @enum {string} */
                source?: "dashboard" | "widget" | "api";
                /** @description Conversations opened */
                conversations?: number;
                /** @description Messages sent and received */
                messages?: number;
                /** @description Users' messages of turns that reached a provider */
                messagesSent?: number;
                /** @description Answers, whole or interrupted */
                messagesReceived?: number;
                promptTokens?: number;
                completionTokens?: number;
                totalTokens?: number;
                /** @description From the price table; tokens of unpriced models are not in it */
                estimatedCostUsd?: number;
                /** @description Tokens of models the price table has no price for */
                unpricedTokens?: number;
                /** @description Turns the provider or engine failed */
                errors?: number;
                /** @description errors / messagesSent, 0 to 1 */
                errorRate?: number;
                /** @description Public API calls */
                apiCalls?: number;
                /** @description Widget loads reported by the widget */
                widgetLoads?: number;
            }[];
        };
        AnalyticsUsage: {
            /**
             * Format: uuid
             * @description null: all of your applications
             */
            applicationId?: string | null;
            /** Format: date */
            from?: string;
            /** Format: date */
            to?: string;
            totals?: components["schemas"]["AnalyticsFigures"];
            byDay?: {
                /** Format: date */
                day?: string;
                /** @description Conversations opened */
                conversations?: number;
                /** @description Messages sent and received */
                messages?: number;
                /** @description Users' messages of turns that reached a provider */
                messagesSent?: number;
                /** @description Answers, whole or interrupted */
                messagesReceived?: number;
                promptTokens?: number;
                completionTokens?: number;
                totalTokens?: number;
                /** @description From the price table; tokens of unpriced models are not in it */
                estimatedCostUsd?: number;
                /** @description Tokens of models the price table has no price for */
                unpricedTokens?: number;
                /** @description Turns the provider or engine failed */
                errors?: number;
                /** @description errors / messagesSent, 0 to 1 */
                errorRate?: number;
                /** @description Public API calls */
                apiCalls?: number;
                /** @description Widget loads reported by the widget */
                widgetLoads?: number;
            }[];
            byProvider?: {
                /** @example provider_a */
                provider?: string;
                /** @description Messages sent and received */
                messages?: number;
                /** @description Users' messages of turns that reached a provider */
                messagesSent?: number;
                /** @description Answers, whole or interrupted */
                messagesReceived?: number;
                promptTokens?: number;
                completionTokens?: number;
                totalTokens?: number;
                /** @description From the price table; tokens of unpriced models are not in it */
                estimatedCostUsd?: number;
                /** @description Tokens of models the price table has no price for */
                unpricedTokens?: number;
                /** @description Turns the provider or engine failed */
                errors?: number;
                /** @description errors / messagesSent, 0 to 1 */
                errorRate?: number;
                /** @description Public API calls */
                apiCalls?: number;
                /** @description Widget loads reported by the widget */
                widgetLoads?: number;
            }[];
            bySource?: {
                /** @enum {string} */
                source?: "dashboard" | "widget" | "api";
                /** @description Conversations opened */
                conversations?: number;
                /** @description Messages sent and received */
                messages?: number;
                /** @description Users' messages of turns that reached a provider */
                messagesSent?: number;
                /** @description Answers, whole or interrupted */
                messagesReceived?: number;
                promptTokens?: number;
                completionTokens?: number;
                totalTokens?: number;
                /** @description From the price table; tokens of unpriced models are not in it */
                estimatedCostUsd?: number;
                /** @description Tokens of models the price table has no price for */
                unpricedTokens?: number;
                /** @description Turns the provider or engine failed */
                errors?: number;
                /** @description errors / messagesSent, 0 to 1 */
                errorRate?: number;
                /** @description Public API calls */
                apiCalls?: number;
                /** @description Widget loads reported by the widget */
                widgetLoads?: number;
            }[];
        };
        AnalyticsConversations: {
            /**
             * Format: uuid
             * @description null: all of your applications
             */
            applicationId?: string | null;
            /** Format: date */
            from?: string;
            /** Format: date */
            to?: string;
            totals?: {
                conversations?: number;
                messages?: number;
                averageMessages?: number;
                longestMessages?: number;
                /** @description From creation to last activity */
                averageDurationSeconds?: number;
                longestDurationSeconds?: number;
                ratings?: {
                    count?: number;
                    average?: number | null;
                    distribution?: {
                        1?: number;
                        2?: number;
                        3?: number;
                        4?: number;
                        5?: number;
                    };
                };
            };
            byDay?: {
                /** Format: date */
                day?: string;
                conversations?: number;
                messages?: number;
                averageMessages?: number;
                longestMessages?: number;
                /** @description From creation to last activity */
                averageDurationSeconds?: number;
                longestDurationSeconds?: number;
            }[];
            bySource?: {
                /** @enum {string} */
                source?: "dashboard" | "widget" | "api";
                conversations?: number;
                messages?: number;
                averageMessages?: number;
                longestMessages?: number;
                /** @description From creation to last activity */
                averageDurationSeconds?: number;
                longestDurationSeconds?: number;
            }[];
            byProvider?: {
                /** @example provider_b */
                provider?: string;
                answers?: number;
                averageAnswerTokens?: number;
            }[];
            /** @description The tools the model called in the period's conversations (docs/tools.md): calls, failures and the average time of a call, by tool. */
            byTool?: {
                /** @example order_status */
                name?: string;
                calls?: number;
                failures?: number;
                averageMs?: number;
            }[];
        };
        AnalyticsCosts: {
            /**
             * Format: uuid
             * @description null: all of your applications
             */
            applicationId?: string | null;
            /** Format: date */
            from?: string;
            /** Format: date */
            to?: string;
            /**
             * Format: date
             * @description The date of the catalogue's list prices
             */
            pricesAsOf?: string;
            totals?: {
                estimatedCostUsd?: number;
                /** @description Turns on your own provider keys */
                ownKeyCostUsd?: number;
                /** @description Turns on the platform's keys */
                platformKeyCostUsd?: number;
                unpricedTokens?: number;
            };
            byModel?: {
                /** @example provider_a */
                provider?: string;
                /** @example gpt-4o-mini */
                model?: string;
                /** @enum {string} */
                keyKind?: "own" | "platform" | "none";
                promptTokens?: number;
                completionTokens?: number;
                price?: {
                    /** @description USD per million prompt tokens */
                    inputPerMillion?: number;
                    /** @description USD per million completion tokens */
                    outputPerMillion?: number;
                } | null;
                estimatedCostUsd?: number;
            }[];
            byDay?: {
                /** Format: date */
                day?: string;
                estimatedCostUsd?: number;
                /** @description Turns on your own provider keys */
                ownKeyCostUsd?: number;
                /** @description Turns on the platform's keys */
                platformKeyCostUsd?: number;
            }[];
            byProvider?: {
                /** @example provider_a */
                provider?: string;
                estimatedCostUsd?: number;
                /** @description Turns on your own provider keys */
                ownKeyCostUsd?: number;
                /** @description Turns on the platform's keys */
                platformKeyCostUsd?: number;
            }[];
            bySource?: {
                /** @enum {string} */
                source?: "dashboard" | "widget" | "api";
                estimatedCostUsd?: number;
                /** @description Turns on your own provider keys */
                ownKeyCostUsd?: number;
                /** @description Turns on the platform's keys */
                platformKeyCostUsd?: number;
            }[];
        };
        SystemHealth: {
            /** @enum {string} */
            status?: "healthy" | "degraded" | "down";
            /** Format: date-time */
            timestamp?: string;
            /** @description database, redis, aiService, marketplace, jobQueues, providers, disk, circuitBreakers */
            components?: {
                [key: string]: {
                    /** @enum {string} */
                    status?: "up" | "degraded" | "down" | "not_configured" | "unknown";
                    critical?: boolean;
                    latencyMs?: number;
                    details?: {
                        [key: string]: unknown;
                    };
                    /** @example unreachable */
                    error?: string;
                };
            };
        };
        ApiKey: {
            /** Format: uuid */
            id?: string;
            /** @example Support Bot */
            name?: string;
            /**
             * Format: uuid
             * @description The one application the key may use; null: every application of its owner
             */
            applicationId?: string | null;
            /** @example pk_live_ */
            keyPrefix?: string;
            /**
             * @description The last 4 characters of the key
             * @example x7Qa
             */
            keyHint?: string;
            /** @description Requests per minute */
            rateLimit?: number;
            /** @description Requests served; written to the database in batches (every 10 s) */
            requestCount?: number;
            /** Format: date-time */
            lastUsedAt?: string | null;
            isActive?: boolean;
            /** Format: date-time */
            revokedAt?: string | null;
            /** Format: date-time */
            createdAt?: string;
        };
        CreatedApiKey: components["schemas"]["ApiKey"] & {
            /**
             * @description The raw key (pk_live_ + 43 characters). Shown in this answer only: the platform keeps its SHA-256 digest.
             * @example pk_live_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo
             */
            key: string;
        };
        /** @description A widget preview session: a signed token the real widget sends as `X-API-Key` from the console's sandboxed preview frame. */
        WidgetPreviewSession: {
            /**
             * @description `wpv_…`: bound to the application and the key below; accepted by the public API only from a sandboxed frame's opaque origin (`Origin: null`) or the platform's own pages, only for this application, until `expiresAt`, within the key's rate limit. The application's allowed origins are not consulted.
             * @example wpv_eyJhIjoiOWIxZGViNGQifQ.3q2-7w
             */
            token?: string;
            /**
             * Format: date-time
             * @description 15 minutes after issue.
             * @example 2026-11-29T02:15:00.000Z
             */
            expiresAt?: string;
            /**
             * @description The application's name, the widget's title.
             * @example Support Bot
             */
            title?: string;
            /** @description The API key the session chats with (an active key of the application, else one for all your applications; the newest). */
            key?: {
                /**
                 * Format: uuid
                 * @example 7c9e6679-7425-40de-944b-e07fc1f90ae7
                 */
                id?: string;
                /** @example Website */
                name?: string;
                /** @example x9Qa */
                keyHint?: string;
            };
        };
        Application: {
            /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
            id?: string;
            /** @example Support Bot */
            name?: string;
            /** @example Answers questions about orders, shipping and returns */
            description?: string;
            /** @example support-bot */
            slug?: string;
            theme?: {
                /** @example dark */
                themeId?: string | null;
                customization?: Record<string, never>;
            };
            allowedOrigins?: string[];
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
            hostedPage?: {
                /** @description serve GET /chat/:slug (off by default) */
                enabled?: boolean;
            };
            /**
             * @description The team that holds the application; null for your own
             * @example 7c9e6679-7425-40de-944b-e07fc1f90ae7
             */
            teamId?: string | null;
            /** @description How the knowledge base is searched for chats and, by default, on GET /api/knowledge/search */
            retrieval?: {
                /**
                 * @default hybrid
                 * @enum {string}
                 */
                mode: "hybrid" | "vector" | "keyword";
            };
        };
        AuditRecord: {
            /** Format: uuid */
            id?: string;
            /** Format: date-time */
            at?: string;
            /** Format: uuid */
            actorId?: string | null;
            /**
             * @description The actor's display name as it is now (read with the record); null for no actor or a deleted account
             * @example Ada Lovelace
             */
            actorName?: string | null;
            /**
             * @description The actor's e-mail as it is now (read with the record); null for no actor or a deleted account
             * @example ada@example.com
             */
            actorEmail?: string | null;
            /** @example user */
            actorRole?: string | null;
            /** @example api_key.create */
            action?: string;
            /** @example application */
            resourceType?: string;
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            resourceId?: string | null;
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            teamId?: string | null;
            /**
             * @description The application the change was made to (its configuration, keys, integrations, plugins); null for none
             * @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f
             */
            applicationId?: string | null;
            /** @example 203.0.113.7 */
            ip?: string | null;
            /** @example Mozilla/5.0 */
            userAgent?: string | null;
            /** @enum {string} */
            outcome?: "success" | "failure";
            /** @description Status and method; for sign-ins the e-mail named; for a change to an application the names of the fields sent (`fields`, never their values); ids named in the path (`versionId`, `memberId`); never secrets */
            details?: Record<string, never>;
        };
        User: {
            /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
            id?: string;
            /** @example ada@example.com */
            email?: string;
            /** @example Ada Lovelace */
            displayName?: string;
            /** @enum {string} */
            role?: "admin" | "developer" | "user";
            /** Format: date-time */
            createdAt?: string;
        };
        Session: {
            user?: components["schemas"]["User"];
            /** @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxNmZkMjcwNiJ9.Qm9yZWQ_c2lnbmF0dXJl */
            access_token?: string;
            /**
             * @description Absent when the console asked for the cookie session (X-AP-Session: cookie)
             * @example eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxNmZkMjcwNiIsImtpbmQiOiJyZWZyZXNoIn0.c2lnbmF0dXJl
             */
            refresh_token?: string;
        };
        /** @description null means unlimited */
        PlanLimits: {
            includedTokens?: number | null;
            applications?: number | null;
            messagesPerMonth?: number | null;
            apiKeys?: number | null;
        };
        Plan: {
            /** @enum {string} */
            id?: "free" | "starter" | "pro" | "enterprise";
            /** @example Support Bot */
            name?: string;
            priceUsdPerMonth?: number;
            /** @description Whether chats may run on the platform's provider keys (not on Free: own keys only) */
            platformKeys?: boolean;
            /** @description USD per 1,000 tokens past the included ones */
            overageUsdPer1k?: number | null;
            limits?: components["schemas"]["PlanLimits"];
        };
        HostedSession: {
            /**
             * Format: uri
             * @description Send the user here (Stripe's hosted page)
             * @example https://checkout.stripe.com/c/pay/cs_test_a1b2c3
             */
            url?: string;
            /** @example cs_test_a1b2c3d4e5 */
            sessionId?: string;
        };
        Invoice: {
            /** @example in_1QabcdEFGhijKL */
            id?: string;
            /** @example A1B2C3D4-0001 */
            number?: string | null;
            /**
             * @description Stripe's invoice status: draft, open, paid, uncollectible, void
             * @example paid
             */
            status?: string | null;
            /** @example usd */
            currency?: string;
            amountDueCents?: number;
            amountPaidCents?: number;
            /**
             * Format: date-time
             * @example 2026-11-01T09:30:00.000Z
             */
            createdAt?: string;
            /**
             * Format: date-time
             * @example 2026-11-01T09:30:00.000Z
             */
            periodStart?: string | null;
            /**
             * Format: date-time
             * @example 2026-12-01T09:30:00.000Z
             */
            periodEnd?: string | null;
            /**
             * Format: uri
             * @example https://invoice.stripe.com/i/acct_123/test_abc
             */
            hostedInvoiceUrl?: string | null;
            /**
             * Format: uri
             * @example https://pay.stripe.com/invoice/acct_123/test_abc/pdf
             */
            pdfUrl?: string | null;
        };
        InvoicePage: {
            items?: components["schemas"]["Invoice"][];
            hasMore?: boolean;
            /**
             * @description Pass as startingAfter for the next page
             * @example in_1QabcdEFGhijKL
             */
            nextCursor?: string | null;
        };
        WebhookOutcome: {
            received?: boolean;
            /** @enum {string} */
            result?: "applied" | "duplicate" | "stale" | "ignored";
            /** @example event type customer.created is not handled */
            reason?: string;
        };
        BillingUsage: {
            /** @enum {string} */
            plan?: "free" | "starter" | "pro" | "enterprise";
            /** @enum {string} */
            status?: "active" | "past_due" | "canceled" | "trialing" | "incomplete";
            /**
             * @description The plan whose limits apply now: Free while canceled or incomplete
             * @example pro
             */
            effectivePlan?: string;
            /** @description True on active Starter and Pro: tokens past the included ones are billed as overage. Otherwise the included tokens are a hard limit (402). */
            overageAllowed?: boolean;
            /** @description Chats without an own provider key may run on the platform's provider keys (not on Free; always for an admin). */
            platformKeys?: boolean;
            /** @description The caller is the platform's admin: no plan limit holds them (every limit is null). */
            exempt?: boolean;
            /** @description Payments are configured on this install (STRIPE_SECRET_KEY): plans can be bought. Without them the console shows no prices, Subscribe buttons or invoices, and limits name the administrator as the way to a larger plan. */
            payments?: boolean;
            /** @description The current monthly billing period, counted from registration or the last plan change */
            period?: {
                /** Format: date-time */
                start?: string;
                /** Format: date-time */
                end?: string;
            };
            limits?: components["schemas"]["PlanLimits"];
            usage?: {
                /** @description Platform-key tokens this period */
                tokensUsed?: number;
                /** @description Held by chats in flight */
                tokensReserved?: number;
                /** @description Included tokens left; null when unlimited */
                tokensRemaining?: number | null;
                overageTokens?: number;
                overageCostUsd?: number;
                /** @description Tokens answered on the user's own keys: never metered */
                ownKeyTokens?: number;
                messages?: number;
                applications?: number;
                apiKeys?: number;
            };
        };
        Branding: {
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            applicationId?: string;
            /** @description primary, secondary, accent, background, text */
            colors?: {
                [key: string]: string;
            };
            typography?: {
                /** @example Inter, system-ui, sans-serif */
                bodyFont?: string;
                /** @example Inter, system-ui, sans-serif */
                headingFont?: string;
            };
            widget?: {
                /** @enum {string} */
                position?: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                /** @example 12px */
                borderRadius?: string;
                /** @example Hi! How can we help? */
                welcomeMessage?: string;
                /** @example Ask a question… */
                placeholder?: string;
            };
            email?: {
                /** @example Acme Support */
                fromName?: string;
                /** Format: email */
                replyTo?: string;
                /**
                 * @description https only
                 * @example https://hooks.example.com/platform
                 */
                headerLogoUrl?: string;
                /** @example Acme Inc., 1 Main Street, Springfield */
                footerText?: string;
            };
            /**
             * @description at most 5 KB; no @import, url() other than https: or data:image/, expression(, javascript:, behavior, </style
             * @example .message { letter-spacing: .01em }
             */
            customCss?: string;
            /** @description false needs a paid plan (402 on Free) */
            showAttribution?: boolean;
            /** Format: date-time */
            updatedAt?: string | null;
        };
        /** @description An owner's endpoint: the key's hint and the headers' names only, never their values. */
        Connection: {
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description The team that holds the connection (its applications may use it); null for the caller's own
             * @example 3f1c2b7e-8a5d-4c2e-9b1a-6d7e8f9a0b1c
             */
            teamId: string | null;
            /** @example local-ollama */
            name: string;
            /** @enum {string} */
            kind: "openai_compatible" | "anthropic_compatible" | "hugging_face_compatible";
            /** @example http://127.0.0.1:11434/v1 */
            baseUrl: string;
            hasKey: boolean;
            /** @example …x7Qa */
            keyHint: string | null;
            headerNames: string[];
            models: string[];
            /** Format: date-time */
            modelsDiscoveredAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ConnectionTest: {
            ok: boolean;
            modelCount: number;
            /**
             * @description Why the endpoint did not answer (no key or address in it)
             * @example The connection local-ollama could not be reached
             */
            error?: string;
        };
        Conversation: {
            /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
            id?: string;
            /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
            applicationId?: string;
            /**
             * @description Given at creation, or else taken from the first message (its first line, at most 60 characters, cut on a word boundary); `PATCH` renames it.
             * @example Returns question
             */
            title?: string;
            /** @enum {unknown} */
            status?: "active" | "archived";
            /** Format: date-time */
            createdAt?: string;
        };
        Message: {
            /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
            id?: string;
            /** @enum {unknown} */
            role?: "user" | "assistant" | "tool";
            /** @example How many days do I have to return a widget? */
            content?: string;
            /** @enum {unknown} */
            status?: "complete" | "interrupted" | "failed";
            /** @example provider_a */
            provider?: string | null;
            /** @example gpt-4o-mini */
            model?: string | null;
            usage?: {
                promptTokens?: number;
                completionTokens?: number;
                totalTokens?: number;
            } | null;
            latencyMs?: number | null;
            sources?: components["schemas"]["MessageSource"][];
            /** Format: date-time */
            createdAt?: string;
            /** @description On an assistant message that called tools. */
            toolCalls?: {
                /** @example call_1 */
                id?: string;
                /** @example order_status */
                name?: string;
                /**
                 * @example {
                 *       "order": "123456"
                 *     }
                 */
                arguments?: unknown;
            }[];
            /**
             * @description On a `tool` message: the call it answers.
             * @example call_1
             */
            toolCallId?: string;
            /**
             * @description On a `tool` message: the tool's name.
             * @example order_status
             */
            name?: string;
            /** @description On a `tool` message: whether its content is an error. */
            isError?: boolean;
            /**
             * @description US dollars this answer cost at the platform's prices (the catalogue's, with the operator's MODEL_PRICES_FILE over them); null when unknown: not an answer, no usage recorded, or a model without a price.
             * @example 0.000123
             */
            cost?: number | null;
            /**
             * @description The owner's rating of an answer, once rated.
             * @example 4
             */
            rating?: number;
        };
        ConversationWithMessages: components["schemas"]["Conversation"] & {
            messages?: components["schemas"]["Message"][];
        };
        Usage: {
            promptTokens?: number;
            completionTokens?: number;
            totalTokens?: number;
        };
        Answer: {
            /** @example 3b241101-e2bb-4255-8caf-4136c566a962 */
            conversationId?: string;
            message?: {
                /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
                id?: string;
                /** @constant */
                role?: "assistant";
                /** @example How many days do I have to return a widget? */
                content?: string;
                /** Format: date-time */
                createdAt?: string;
            };
            usage?: components["schemas"]["Usage"];
            /** @example provider_a */
            provider?: string;
            /** @example gpt-4o-mini */
            model?: string;
            latencyMs?: number;
            sources?: components["schemas"]["MessageSource"][];
            toolCalls?: {
                /** @example call_1 */
                id?: string;
                /** @example order_status */
                name?: string;
                /**
                 * @example {
                 *       "order": "123456"
                 *     }
                 */
                arguments?: unknown;
                isError?: boolean;
                durationMs?: number;
            }[];
            /**
             * @description Set when a limit ended the turn's tool use (docs/tools.md).
             * @enum {unknown}
             */
            stoppedBy?: "maxToolRounds" | "timeBudget";
            /**
             * @description US dollars this answer cost at the platform's prices (the catalogue's, with the operator's MODEL_PRICES_FILE over them); null when unknown: not an answer, no usage recorded, or a model without a price.
             * @example 0.000123
             */
            cost?: number | null;
        };
        MessageRequest: {
            /** @example How many days do I have to return a widget? */
            content: string;
            /** @enum {unknown} */
            provider?: "provider_a" | "provider_b" | "provider_c" | "provider_d";
            /** @example gpt-4o-mini */
            model?: string;
            temperature?: number;
            max_tokens?: number;
            /** @example You are a friendly support assistant. Answer in two sentences at most. */
            system_prompt?: string;
        };
        /** @description One SSE `data:` line: with tools, `{type:'tool_call',id,name,arguments}` and `{type:'tool_result',toolCallId,name,content,isError,durationMs}` for each call first; then `{type:'chunk',content}` zero or more times, then `{type:'done',fullResponse,conversationId,messageId,usage,provider,model,latencyMs,cost,sources?,toolCalls?,stoppedBy?}` (`cost`: US dollars at the platform's prices, null when unknown); a failure ends with `{type:'error',message}`. */
        StreamEvent: Record<string, never>;
        ProviderInfo: {
            /** @example provider_a */
            id?: string;
            /** @example gpt-4o-mini */
            defaultModel?: string;
            models?: {
                /** @example gpt-4o-mini */
                id?: string;
                maxOutputTokens?: number;
                contextWindow?: number;
            }[];
            platformKeyConfigured?: boolean;
            acceptsAnyModel?: boolean;
        };
        /** @description A knowledge-base passage the answer drew on. */
        MessageSource: {
            /** Format: uuid */
            documentId?: string;
            /** @example 0 */
            chunkIndex?: number;
            /**
             * @description Cosine similarity to the question.
             * @example 0.4213
             */
            score?: number;
            /**
             * @description The document's file name.
             * @example refund-policy.md
             */
            fileName?: string;
            /**
             * @description The start of the passage (at most 240 characters), for a citation.
             * @example Customers may return any gadget within 30 days of purchase for a full refund.
             */
            excerpt?: string;
            /**
             * @description The passage's page (PDF), for a citation such as "handbook.pdf, p. 12"
             * @example 12
             */
            page?: number | null;
            /**
             * @description The passage's heading path ("Leave > Sick leave")
             * @example Returns > Refunds
             */
            section?: string | null;
        };
        CustomDomain: {
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            id?: string;
            /** @example chat.example.com */
            domain?: string;
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            applicationId?: string;
            /** @enum {string} */
            status?: "pending" | "verified" | "failed" | "active";
            /** @example the receiver answered 500 */
            failureReason?: string | null;
            dnsRecords?: {
                /** @enum {string} */
                type?: "TXT" | "CNAME";
                /** @example Support Bot */
                name?: string;
                /** @example ap-verify=9c1f2e7a4b */
                value?: string;
            }[];
            settings?: {
                redirectWww?: boolean;
                forceHttps?: boolean;
                customHeaders?: {
                    [key: string]: string;
                };
            };
            /** @example 2026-11-25T10:30:00.000Z */
            verifiedAt?: string | null;
            /** @example 2026-11-25T10:30:00.000Z */
            lastCheckedAt?: string | null;
            /** @example 2026-11-25T10:30:00.000Z */
            activatedAt?: string | null;
            ssl?: {
                /** @example 2026-11-25T10:30:00.000Z */
                expiresAt?: string | null;
                /** @example 2026-11-25T10:30:00.000Z */
                checkedAt?: string | null;
                /** @example the receiver answered 500 */
                error?: string | null;
            };
            /** @example 2026-11-25T10:30:00.000Z */
            createdAt?: string;
        };
        DataExport: {
            /** Format: uuid */
            id?: string;
            /** @enum {string} */
            resources?: "all" | "applications" | "conversations" | "analytics";
            /** @enum {string} */
            format?: "json" | "csv";
            /** @enum {string} */
            status?: "pending" | "running" | "ready" | "failed";
            /** @example 48213 */
            byteSize?: number | null;
            /** @example The export could not be written */
            error?: string | null;
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            completedAt?: string | null;
            /**
             * Format: date-time
             * @description 24 hours after the request; the download stops working then.
             */
            expiresAt?: string;
            /**
             * @description Set once ready and until it expires; works with the owner's bearer token only.
             * @example /api/data-export/5f0c2b9e-8f7a-4d7e-9a51-1f2e3d4c5b6a/download
             */
            downloadUrl?: string | null;
        };
        ImportedApplication: {
            /**
             * @description Your id for the record: importing a record whose clientId was imported before changes nothing (`skipped`). An export names each application's id here.
             * @example crm-bot-1
             */
            clientId: string;
            /** @example Support Bot */
            name: string;
            /** @example Answers questions about orders */
            description?: string;
            allowedOrigins?: string[];
            modelConfigs?: {
                /** @example Precise */
                name: string;
                /** @enum {string} */
                provider: "provider_a" | "provider_b" | "provider_c" | "provider_d";
                /** @example gpt-4o */
                modelId?: string;
                /** @description As for model configs; missing settings take their defaults. */
                settings?: Record<string, never>;
                /** @description At most one: a later config claiming it too is refused (listed in `refused`); without one, the first config is the default. */
                isDefault?: boolean;
                /** @description The figures of the traffic the config keeps for itself (the A/B control arm); zero when absent. */
                controlCounters?: {
                    /** @example 120 */
                    requestCount?: number;
                    /**
                     * @description At most requestCount.
                     * @example 3
                     */
                    errorCount?: number;
                    /** @example 840.5 */
                    avgLatencyMs?: number;
                    /** @example 412.25 */
                    avgTokensUsed?: number;
                };
                /** @description A/B versions. Labels are unique per config (in any case); active versions take at most 100% of the traffic together. */
                versions?: {
                    /**
                     * @description The version's id in the exporting account: what conversations and messages name it by (`configVersionClientId`). Unique within the application.
                     * @example 5d0c6a43-1f0e-4d55-9f7b-2d3c4b5a6978
                     */
                    clientId?: string;
                    /** @example v1 */
                    version?: string;
                    /** @example Cooler */
                    label: string;
                    /**
                     * @description The config's when absent.
                     * @enum {string}
                     */
                    provider?: "provider_a" | "provider_b" | "provider_c" | "provider_d";
                    /**
                     * @description The config's when absent.
                     * @example gpt-4o
                     */
                    modelId?: string;
                    /** @description As for versions; missing settings take their defaults. */
                    settings?: Record<string, never>;
                    /** @example 25 */
                    trafficPercent?: number;
                    /** @default true */
                    isActive: boolean;
                    /** @description The version's figures; zero when absent. */
                    counters?: {
                        /** @example 120 */
                        requestCount?: number;
                        /**
                         * @description At most requestCount.
                         * @example 3
                         */
                        errorCount?: number;
                        /** @example 840.5 */
                        avgLatencyMs?: number;
                        /** @example 412.25 */
                        avgTokensUsed?: number;
                    };
                    /**
                     * Format: date-time
                     * @example 2026-01-02T03:04:05.000Z
                     */
                    createdAt?: string;
                }[];
            }[];
            promptTemplates?: {
                /** @example Greeting */
                name: string;
                /** @example Hello {{name}}! */
                content: string;
                /** @description At most one: a later template claiming it too is refused (listed in `refused`). */
                isDefault?: boolean;
            }[];
            conversations?: {
                /** @example 0b7e4f4e-3c1e-4d8f-a2a9-6f7e1c2d3b4a */
                clientId?: string;
                /** @example Password help */
                title: string;
                /**
                 * @default active
                 * @enum {string}
                 */
                status: "active" | "archived";
                /**
                 * @default dashboard
                 * @enum {string}
                 */
                source: "dashboard" | "api" | "widget";
                /**
                 * @description The A/B version assigned when the conversation started: the clientId of a version in this application's model configs.
                 * @example 5d0c6a43-1f0e-4d55-9f7b-2d3c4b5a6978
                 */
                configVersionClientId?: string | null;
                /** Format: date-time */
                createdAt?: string;
                messages?: {
                    /**
                     * @description `tool`: the result of a tool call, answering `toolCallId` of an earlier assistant message.
                     * @enum {string}
                     */
                    role: "user" | "assistant" | "tool";
                    /**
                     * @description Exactly as stored; may be empty (an interrupted or failed answer, a turn of tool calls). A user message is at most 100,000 characters.
                     * @example How do I reset my password?
                     */
                    content: string;
                    /**
                     * @default complete
                     * @enum {string}
                     */
                    status: "complete" | "interrupted" | "failed";
                    /**
                     * @description Why an interrupted or failed answer ended; assistant messages only.
                     * @example provider_a (OpenAI) is unavailable right now
                     */
                    error?: string | null;
                    /** @example provider_a */
                    provider?: string | null;
                    /** @example gpt-4o-mini */
                    model?: string | null;
                    promptTokens?: number | null;
                    completionTokens?: number | null;
                    totalTokens?: number | null;
                    latencyMs?: number | null;
                    /** @description Assistant answers that did not fail only. */
                    rating?: number | null;
                    /** @description The knowledge sources the answer cited, as exported (a list; document ids name documents of the exporting account). */
                    sources?: unknown;
                    /**
                     * @description The A/B version that answered (a version's clientId in this application).
                     * @example 5d0c6a43-1f0e-4d55-9f7b-2d3c4b5a6978
                     */
                    configVersionClientId?: string | null;
                    /** @description The tools an assistant message called, in order. */
                    toolCalls?: {
                        /** @example call_1 */
                        id: string;
                        /** @example order_status */
                        name: string;
                        /** @description As the model wrote them: parsed JSON, or the text. */
                        arguments?: unknown;
                    }[] | null;
                    /**
                     * @description A tool message: the call it answers (required there, absent elsewhere).
                     * @example call_1
                     */
                    toolCallId?: string | null;
                    /**
                     * @description A tool message: its tool (required there, absent elsewhere).
                     * @example order_status
                     */
                    toolName?: string | null;
                    /** @description A tool message: whether its content is an error. */
                    isError?: boolean | null;
                    /** Format: date-time */
                    createdAt?: string;
                }[];
            }[];
        };
        EvaluationItemInput: {
            /** @example How do I reset my password? */
            message: string;
            /** @description Values for the instructions' {{placeholders}} (studio draft and application targets) */
            variables?: {
                [key: string]: string;
            };
            /** @description The conversation before the message, stored as its earlier turns */
            history?: {
                /** @enum {string} */
                role: "user" | "assistant";
                /** @example I forgot my password. */
                content: string;
            }[];
        };
        EvaluationItemNew: {
            input: components["schemas"]["EvaluationItemInput"];
            /** @example Open Settings, then Security, then Reset password. */
            expected?: string | null;
            tags?: string[];
        };
        EvaluationItem: {
            /** Format: uuid */
            id?: string;
            input?: components["schemas"]["EvaluationItemInput"];
            /** @example Open Settings, then Security, then Reset password. */
            expected?: string | null;
            tags?: string[];
            /** Format: date-time */
            createdAt?: string;
        };
        EvaluationDataset: {
            /** Format: uuid */
            id?: string;
            /** Format: uuid */
            applicationId?: string;
            /** @example Password questions */
            name?: string;
            /** @example Questions customers ask about passwords */
            description?: string;
            /** @description Raised by every change to the items; a run records the version it used */
            version?: number;
            itemCount?: number;
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        /** @description One check giving a score in [0, 1] and pass or fail. Fields by type: contains (values, mode any|all), regex (pattern; RE2 syntax, linear time: no lookarounds or backreferences), json_schema (schema), similarity (threshold, on the platform's local embeddings), judge (provider, model, rubric, scaleMin, scaleMax, passScore), latency (maxMs), tokens (max), cost (maxUsd). */
        Evaluator: {
            /** @enum {string} */
            type: "exact" | "contains" | "regex" | "json" | "json_schema" | "similarity" | "judge" | "latency" | "tokens" | "cost";
            /** @example Password questions */
            name?: string;
            /** @description Off unless set */
            caseSensitive?: boolean;
            /** @enum {string} */
            mode?: "any" | "all";
            values?: string[];
            /** @example ^Open Settings */
            pattern?: string;
            /** @description A JSON Schema (draft-07) the JSON in the answer must match */
            schema?: Record<string, never>;
            threshold?: number;
            /** @enum {string} */
            provider?: "provider_a" | "provider_b" | "provider_c" | "provider_d";
            /** @example gpt-4o-mini */
            model?: string;
            /** @example Does the answer give the steps in order? */
            rubric?: string;
            scaleMin?: number;
            scaleMax?: number;
            passScore?: number;
            maxMs?: number;
            max?: number;
            maxUsd?: number;
        };
        /** @description config_version (versionId), model_config (configId), studio_draft, or application (applicationId: another application of the same owner) */
        EvaluationTarget: {
            /** @enum {string} */
            kind: "config_version" | "model_config" | "studio_draft" | "application";
            /** Format: uuid */
            versionId?: string;
            /** Format: uuid */
            configId?: string;
            /** Format: uuid */
            applicationId?: string;
        };
        EvaluationScore: {
            /** @example Exact match */
            evaluator?: string;
            /** @example exact */
            type?: string;
            score?: number;
            passed?: boolean;
            /**
             * @description Why, in words; the judge's reasoning for a judge
             * @example The answer differs from the expected answer
             */
            reason?: string;
        };
        EvaluationTargetSummary: {
            index?: number;
            /** @example v2 · shorter */
            label?: string;
            ref?: Record<string, never>;
            /** @example provider_a */
            provider?: string;
            /** @example gpt-4o-mini */
            model?: string;
            total?: number;
            finished?: number;
            passed?: number;
            failed?: number;
            errors?: number;
            passRate?: number | null;
            /** @description 95% interval; null without enough observations */
            passRateInterval?: {
                low?: number;
                high?: number;
            } | null;
            evaluators?: {
                /** @example Password questions */
                name?: string;
                /** @example exact */
                type?: string;
                mean?: number | null;
                /** @description 95% interval; null without enough observations */
                interval?: {
                    low?: number;
                    high?: number;
                } | null;
                passRate?: number | null;
                /** @description 95% interval; null without enough observations */
                passRateInterval?: {
                    low?: number;
                    high?: number;
                } | null;
            }[];
            avgLatencyMs?: number | null;
            totalTokens?: number;
            totalCost?: number | null;
        };
        EvaluationRun: {
            /** Format: uuid */
            id?: string;
            /** Format: uuid */
            applicationId?: string;
            /** Format: uuid */
            datasetId?: string;
            datasetVersion?: number;
            /** @example Password questions */
            name?: string;
            /** @enum {string} */
            status?: "running" | "completed" | "cancelled" | "failed";
            /** @enum {string} */
            trigger?: "console" | "api";
            passThreshold?: number | null;
            concurrency?: number;
            evaluators?: components["schemas"]["Evaluator"][];
            total?: number;
            finished?: number;
            /** @example The provider did not answer in time */
            error?: string | null;
            /**
             * @description The gate: pass when every target's pass rate reaches passThreshold once the run completed; none without a threshold
             * @enum {string}
             */
            verdict?: "pending" | "pass" | "fail" | "none";
            targets?: components["schemas"]["EvaluationTargetSummary"][];
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            finishedAt?: string | null;
        };
        EvaluationResult: {
            /** Format: uuid */
            itemId?: string;
            seq?: number;
            target?: number;
            /** @enum {string} */
            state?: "pending" | "running" | "done" | "failed" | "cancelled";
            input?: components["schemas"]["EvaluationItemInput"];
            /** @example Open Settings, then Security, then Reset password. */
            expected?: string | null;
            /** @example Open Settings, then Security, then Reset password. */
            answer?: string | null;
            passed?: boolean | null;
            scores?: components["schemas"]["EvaluationScore"][];
            promptTokens?: number | null;
            completionTokens?: number | null;
            cost?: number | null;
            latencyMs?: number | null;
            /**
             * Format: uuid
             * @description The conversation that holds the answer and its trace
             */
            conversationId?: string | null;
            /** Format: uuid */
            messageId?: string | null;
            /** @example The provider did not answer in time */
            error?: string | null;
        };
        EvaluationComparison: {
            a?: {
                /** Format: uuid */
                runId?: string;
                target?: number;
                /** @example v2 · shorter */
                label?: string;
                passRate?: number | null;
            };
            b?: {
                /** Format: uuid */
                runId?: string;
                target?: number;
                /** @example v2 · shorter */
                label?: string;
                passRate?: number | null;
            };
            compared?: number;
            regressions?: number;
            improvements?: number;
            changed?: {
                /** Format: uuid */
                itemId?: string;
                seq?: number;
                input?: components["schemas"]["EvaluationItemInput"];
                /** @example Open Settings, then Security, then Reset password. */
                expected?: string | null;
                a?: {
                    passed?: boolean;
                    /** @example Open Settings, then Security, then Reset password. */
                    answer?: string | null;
                    scores?: components["schemas"]["EvaluationScore"][];
                };
                b?: {
                    passed?: boolean;
                    /** @example Open Settings, then Security, then Reset password. */
                    answer?: string | null;
                    scores?: components["schemas"]["EvaluationScore"][];
                };
            }[];
        };
        /** @description An evaluator kept by name, which an A/B test can score its arms' sampled live answers with (goal evaluator_score). */
        SavedEvaluator: {
            /**
             * Format: uuid
             * @example 0c1e5a3b-7d2f-4e8a-b6c4-2a9d0f1e3b5c
             */
            id: string;
            /**
             * Format: uuid
             * @example 7b0e2f4c-1a3d-4c5e-9f8a-6b7c8d9e0f1a
             */
            applicationId: string;
            /** @example Warmth */
            name: string;
            evaluator: components["schemas"]["Evaluator"];
            /** Format: date-time */
            createdAt: string;
        };
        KnowledgeDocument: {
            /** Format: uuid */
            id?: string;
            /**
             * Format: uuid
             * @description The knowledge base holding it; for an application's own base, the application's id
             */
            baseId?: string;
            /**
             * Format: uuid
             * @description The same id as baseId, named as the per-application routes name it
             */
            applicationId?: string;
            /** @example refund-policy.md */
            fileName?: string;
            /** @enum {string} */
            format?: "txt" | "md" | "json" | "csv" | "html" | "xml" | "pdf" | "docx";
            /** @description Bytes */
            size?: number;
            /** @enum {string} */
            status?: "processing" | "ready" | "error";
            progress?: number;
            chunkCount?: number;
            /**
             * @description Why processing failed, when status is error
             * @example Bad Request
             */
            error?: string | null;
            /** @description Characters */
            chunkSize?: number;
            /** @description Characters */
            chunkOverlap?: number;
            /** @enum {string} */
            embeddingProvider?: "local" | "provider_a" | "provider_c" | "provider_d";
            /** @example local-hash-384 */
            embeddingModel?: string;
            embeddingDimension?: number | null;
            /**
             * @description SHA-256 of the uploaded file (hex); the same file twice in one application is refused with 409
             * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            contentHash?: string | null;
            /** @description A re-index or, with `version`, a new version being built; the current chunks stay searchable until it switches in one step */
            reindexing?: {
                chunkSize?: number;
                chunkOverlap?: number;
                progress?: number;
                /** @description The version being built (a replacement or rollback); null for a plain re-index */
                version?: number | null;
            } | null;
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
            /** @description The version (file) search reads */
            version?: number;
        };
        KnowledgeSearchResult: {
            /** Format: uuid */
            documentId?: string;
            /** @example refund-policy.md */
            fileName?: string;
            chunkIndex?: number;
            /** @example Customers may return any gadget within 30 days of purchase for a full refund. */
            text?: string;
            /** @description Cosine similarity to the query (in hybrid and keyword mode the order is the mode's own rank, not this score) */
            score?: number;
            /**
             * @description The chunk's page (PDF), else null
             * @example 12
             */
            page?: number | null;
            /**
             * @description The chunk's heading path, headings joined with " > " (Markdown, HTML, DOCX), else null
             * @example Returns > Refunds
             */
            section?: string | null;
        };
        KnowledgeDocumentVersion: {
            version?: number;
            /** @example returns-policy.md */
            fileName?: string;
            /** @example md */
            format?: string;
            /** @description Bytes */
            size?: number;
            /**
             * @description SHA-256 of the file (hex)
             * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            contentHash?: string | null;
            /**
             * Format: uuid
             * @description Who uploaded it (null once that account is gone)
             */
            createdBy?: string | null;
            /** @description A rollback: the version whose file it brought back */
            restoredFrom?: number | null;
            /** @enum {string} */
            state?: "current" | "replacing" | "failed" | "previous";
            /** @example The document has no text */
            failure?: string | null;
            /** Format: date-time */
            createdAt?: string;
        };
        KnowledgeChunk: {
            /** Format: uuid */
            documentId?: string;
            chunkIndex?: number;
            /** @example Customers may return any purchase within 60 days for a full refund. */
            content?: string;
            tokenCount?: number;
            page?: number | null;
            /** @example Setup > Linux */
            section?: string | null;
            /** @description A disabled chunk is kept but never found by search or chat */
            enabled?: boolean;
        };
        KnowledgeRetrievalSettings: {
            /** Format: uuid */
            applicationId?: string;
            /**
             * @description null: the application's retrieval.mode
             * @enum {string|null}
             */
            mode?: "hybrid" | "vector" | "keyword" | null;
            /**
             * @description Chunks at most in the prompt and the sources
             * @default 8
             */
            topK: number;
            /** @description The lowest cosine score a chunk needs to reach the prompt and the sources; null: each embedder's own floor */
            scoreThreshold?: number | null;
            /**
             * @description Order the candidates with the platform's reranker (when RERANK_URL is set)
             * @default false
             */
            rerank: boolean;
            /** @enum {string} */
            effectiveMode?: "hybrid" | "vector" | "keyword";
            rerankerAvailable?: boolean;
            /** @description The knowledge bases the application uses besides its own (which it always uses), in the order added */
            bases?: {
                /** Format: uuid */
                id?: string;
                /** @example Company handbook */
                name?: string;
                /** Format: uuid */
                teamId?: string | null;
            }[];
        };
        KnowledgeBase: {
            /** Format: uuid */
            id?: string;
            /**
             * @description An application's own base is named after its application
             * @example Company handbook
             */
            name?: string;
            /** @example Travel, expenses and leave rules every desk follows */
            description?: string;
            /**
             * Format: uuid
             * @description The team holding it; null for a personal base (an application's own base: held as its application is)
             */
            teamId?: string | null;
            /**
             * Format: uuid
             * @description Set on an application's own base (whose id is the application's); null for a base of its own
             */
            applicationId?: string | null;
            documentCount?: number;
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        LogTokens: {
            prompt?: number;
            completion?: number;
            total?: number;
        };
        /** @description Who talked: an API key (public API, widget; `name` is the key's name), a visitor of the hosted page, a workflow, or someone in the console. */
        LogEndUser: {
            /** @enum {string} */
            kind?: "api_key" | "visitor" | "workflow" | "console";
            /** @example Shop widget key */
            name?: string | null;
        };
        LogRow: {
            /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
            id?: string;
            /** @example How do I reset my password? */
            title?: string;
            /** @enum {string} */
            channel?: "console" | "api" | "widget" | "hosted_page" | "workflow";
            endUser?: components["schemas"]["LogEndUser"];
            /**
             * @description The first question (at most 300 characters)
             * @example How do I reset my password?
             */
            firstMessage?: string | null;
            messageCount?: number;
            tokens?: components["schemas"]["LogTokens"];
            /** @description US dollars at the platform's prices; null when no answer has a known price */
            cost?: number | null;
            rating?: {
                /** @description Answers rated 4 or 5 */
                up?: number;
                /** @description Answers rated 1 or 2 */
                down?: number;
                average?: number | null;
            };
            failedAnswers?: number;
            toolCalls?: number;
            /**
             * Format: date-time
             * @example 2026-01-05T10:00:00.000Z
             */
            createdAt?: string;
            /**
             * Format: date-time
             * @example 2026-01-05T10:00:00.000Z
             */
            lastActivityAt?: string;
        };
        /** @description One span of a turn's trace; attributes follow the OpenTelemetry GenAI semantic conventions (`gen_ai.request.model`, `gen_ai.usage.input_tokens`, `gen_ai.tool.name`, ...). */
        TraceSpan: {
            /** @example 00f067aa0ba902b7 */
            spanId?: string;
            /** @example 53995c3f42cd8ad8 */
            parentSpanId?: string | null;
            /** @example chat gpt-4o-mini */
            name?: string;
            /**
             * Format: date-time
             * @example 2026-01-05T10:00:00.000Z
             */
            startTime?: string;
            durationMs?: number;
            /** @enum {string} */
            status?: "ok" | "error";
            /** @example The provider timed out */
            statusMessage?: string;
            attributes?: {
                [key: string]: unknown;
            };
        };
        Trace: {
            /** @example 4bf92f3577b34da6a3ce929d0e0e4736 */
            traceId?: string;
            spans?: components["schemas"]["TraceSpan"][];
        };
        LogMessage: {
            /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
            id?: string;
            /** @enum {string} */
            role?: "user" | "assistant" | "tool";
            /** @example Open Settings, choose Security, then Reset password. */
            content?: string;
            /** @enum {string} */
            status?: "complete" | "interrupted" | "failed";
            /** @example provider_a */
            provider?: string | null;
            /** @example gpt-4o-mini */
            model?: string | null;
            usage?: {
                promptTokens?: number;
                completionTokens?: number;
                totalTokens?: number;
            } | null;
            latencyMs?: number | null;
            /** @example The provider request failed */
            error?: string | null;
            sources?: {
                [key: string]: unknown;
            }[];
            toolCalls?: {
                /** @example call_1 */
                id?: string;
                /** @example Shop widget key */
                name?: string;
                arguments?: unknown;
            }[];
            /** @example call_1 */
            toolCallId?: string | null;
            /** @example lookup_order */
            toolName?: string | null;
            isError?: boolean;
            rating?: number | null;
            cost?: number | null;
            /**
             * @description The annotation that answered instead of the model (annotation replies)
             * @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d
             */
            answeredByAnnotationId?: string | null;
            /**
             * @description The annotation made of this answer
             * @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d
             */
            annotationId?: string | null;
            /** @description The turn's trace, when it was recorded */
            trace?: components["schemas"]["Trace"] | null;
            /**
             * Format: date-time
             * @example 2026-01-05T10:00:00.000Z
             */
            createdAt?: string;
        };
        LogConversation: {
            /** @example call_1 */
            id?: string;
            /** @example How do I reset my password? */
            title?: string;
            /** @enum {string} */
            channel?: "console" | "api" | "widget" | "hosted_page" | "workflow";
            endUser?: components["schemas"]["LogEndUser"];
            /** @enum {string} */
            status?: "active" | "archived";
            /**
             * Format: date-time
             * @example 2026-01-05T10:00:00.000Z
             */
            createdAt?: string;
            /**
             * Format: date-time
             * @example 2026-01-05T10:00:00.000Z
             */
            lastActivityAt?: string;
            messages?: components["schemas"]["LogMessage"][];
        };
        Annotation: {
            /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
            id?: string;
            /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
            messageId?: string | null;
            /** @enum {string} */
            kind?: "good" | "corrected" | "manual";
            /** @example How do I reset my password? */
            question?: string;
            /** @example Open Settings, choose Security, then Reset password. */
            answer?: string;
            /** @description Questions it answered (annotation replies) */
            hitCount?: number;
            /**
             * Format: date-time
             * @example 2026-01-05T10:00:00.000Z
             */
            lastHitAt?: string | null;
            /**
             * Format: date-time
             * @example 2026-01-05T10:00:00.000Z
             */
            createdAt?: string;
            /**
             * Format: date-time
             * @example 2026-01-05T10:00:00.000Z
             */
            updatedAt?: string;
        };
        AnnotationSettings: {
            repliesEnabled?: boolean;
            threshold?: number;
        };
        /** @description A published marketplace plugin */
        MarketplacePlugin: {
            /** Format: uuid */
            id: string;
            /** @example profanity-filter */
            name: string;
            /** @example Profanity filter */
            displayName: string;
            /** @example Masks rude words in messages before they reach the model */
            description: string;
            /** @example 1.1.0 */
            version: string;
            /** @example Ada Lovelace */
            author: string;
            /** @example security */
            category: string;
            /** @example 120 */
            downloadCount: number;
            /** @example 14 */
            ratingCount: number;
            /** @example 4.5 */
            averageRating: number;
            isActive?: boolean;
            isPaid?: boolean;
            /**
             * @description US dollars, when isPaid
             * @example 9
             */
            price?: number | null;
            /** @example profanity-filter */
            slug?: string;
            /**
             * Format: uuid
             * @description The user who submitted it
             */
            authorId?: string;
            /** @description Shown among the featured items */
            featured?: boolean;
            /**
             * @description Its review: pending, published (approved) or rejected
             * @enum {string}
             */
            status?: "pending" | "published" | "rejected";
            /**
             * Format: uri
             * @example https://example.com/icon.png
             */
            iconUrl?: string | null;
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            publishedAt?: string | null;
        };
        MarketplaceTheme: {
            /** Format: uuid */
            id: string;
            /** @example midnight */
            name: string;
            /** @example Midnight */
            displayName: string;
            /** @example A dark theme with a blue accent */
            description: string;
            /** @example 1.0.0 */
            version: string;
            /** @example Ada Lovelace */
            author: string;
            /** @example minimal */
            category: string;
            /** @example 40 */
            downloadCount: number;
            /** @example 3 */
            ratingCount: number;
            /** @example 4 */
            averageRating: number;
            /** Format: uri */
            previewUrl?: string;
            /** @example profanity-filter */
            slug?: string;
            /**
             * Format: uuid
             * @description The user who submitted it
             */
            authorId?: string;
            /** @description Shown among the featured items */
            featured?: boolean;
            /**
             * @description Its review: pending, published (approved) or rejected
             * @enum {string}
             */
            status?: "pending" | "published" | "rejected";
            /**
             * Format: uri
             * @example https://example.com/icon.png
             */
            iconUrl?: string | null;
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            publishedAt?: string | null;
            isPaid?: boolean;
            /**
             * @description US dollars, when isPaid
             * @example 9
             */
            price?: number | null;
        };
        MarketplacePage: {
            data?: Record<string, never>[];
            /** @example 42 */
            total?: number;
            /** @example 1 */
            page?: number;
            /** @example 20 */
            limit?: number;
        };
        MarketplaceReview: {
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            pluginId?: string;
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            userId: string;
            /** @example 5 */
            rating: number;
            /** @example Does what it says */
            title?: string;
            /** @example Caught every word on our list. */
            comment: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: uuid */
            id?: string;
            /**
             * @description Present on theme reviews
             * @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f
             */
            themeId?: string;
            /**
             * @description The review text as submitted (the same as comment)
             * @example Caught every word on our list.
             */
            review?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        MarketplaceVersion: {
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            pluginId?: string;
            /** @example 1.1.0 */
            version?: string;
            /** @example Adds a custom word list */
            changelog?: string;
            compatibility?: {
                /** @example 0.1.0 */
                minPlatformVersion?: string;
                /** @example 1.0.0 */
                maxPlatformVersion?: string;
            };
            /** Format: uri */
            downloadUrl?: string;
            /** @example 2048 */
            fileSize?: number;
            /** @example sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 */
            checksum?: string;
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            publishedBy?: string;
            /** Format: date-time */
            releasedAt?: string;
        };
        MarketplaceUpdate: {
            /** Format: uuid */
            installedPluginId?: string;
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            pluginId?: string;
            /** Format: uuid */
            marketplacePluginId?: string;
            /** @example 1.1.0 */
            latestVersion?: string;
            /** @example 1.0.0 */
            currentVersion?: string;
            /** @example Adds a custom word list */
            changelog?: string;
        };
        MarketplaceRatingStats: {
            /** @example 4.5 */
            averageRating: number;
            /** @example 14 */
            totalReviews: number;
            /** @description How many reviews gave each number of stars */
            distribution: {
                /** @example 1 */
                1: number;
                /** @example 1 */
                2: number;
                /** @example 1 */
                3: number;
                /** @example 1 */
                4: number;
                /** @example 9 */
                5: number;
            };
        };
        /** @description A plugin or theme with its rating statistics and recent reviews */
        MarketplaceItemDetail: components["schemas"]["MarketplacePlugin"] & {
            /**
             * Format: uri
             * @example https://example.com/profanity-filter
             */
            homepage?: string | null;
            /**
             * Format: uri
             * @example https://github.com/example/profanity-filter
             */
            repository?: string | null;
            /**
             * Format: uri
             * @example https://example.com/midnight.png
             */
            previewUrl?: string | null;
            ratingStats: components["schemas"]["MarketplaceRatingStats"];
            recentReviews?: components["schemas"]["MarketplaceReview"][];
            /**
             * @description Set when an administrator rejected it (shown to its author and administrators)
             * @example The manifest asks for hosts it never uses
             */
            rejectionReason?: string | null;
        };
        /** @description One of your submissions and where its review stands */
        MarketplaceSubmission: components["schemas"]["MarketplacePlugin"] & {
            /** @enum {string} */
            kind: "plugin" | "theme";
            /** @example The manifest asks for hosts it never uses */
            rejectionReason: string | null;
        };
        MarketplaceHeldLicense: {
            /** Format: uuid */
            id: string;
            plugin: {
                /** Format: uuid */
                id: string;
                /** @example word-counter */
                name: string;
                /** @example Word counter */
                displayName: string;
                /** @example word-counter */
                slug: string;
                /** @example 1.2.0 */
                version: string;
                /** @example Ada Author */
                author: string;
                /** @example https://example.com/word-counter.png */
                iconUrl: string | null;
                /** @description In the marketplace's currency units */
                price: number | null;
                /** @description Whether the plugin is still published */
                isActive: boolean;
            };
            /** @enum {string} */
            status: "active" | "revoked";
            /**
             * Format: date-time
             * @description Null: the license does not expire
             */
            expiresAt: string | null;
            /**
             * Format: date-time
             * @description When the license was bought or issued
             */
            createdAt: string;
            /** @description The caller's installations of the plugin (in applications they own) and their license standing */
            installations: {
                /** Format: uuid */
                installationId: string;
                /** Format: uuid */
                applicationId: string;
                /**
                 * @description `deactivated` when the re-validation refused the license (or its grace period ran out)
                 * @enum {string}
                 */
                state: "installed" | "activated" | "deactivated";
                /**
                 * Format: date-time
                 * @description Set while the marketplace cannot be reached and the installation runs on its 72-hour grace period
                 */
                graceEndsAt: string | null;
            }[];
        };
        /** @description temperature 0-2 (0-1 for provider_c), maxTokens 1-128000 and at most the model's own maximum, topP 0-1, frequencyPenalty and presencePenalty -2 to 2, systemPrompt up to 20000 characters. Missing values take their defaults (0.7, 2048, 1.0). */
        ModelSettings: {
            temperature?: number;
            maxTokens?: number;
            topP?: number;
            frequencyPenalty?: number;
            presencePenalty?: number;
            /** @example You are a friendly support assistant. Answer in two sentences at most. */
            systemPrompt?: string;
            /** @description What a turn does when its provider has a bad day (docs/connections.md, "Resilience"). Unknown fields are refused; null clears it. */
            resilience?: {
                retry?: {
                    /** @description Retries per provider/model pair after the first attempt (default 2). */
                    maxRetries?: number;
                    /** @description The first wait; each retry doubles it, with jitter (default 500). A provider's Retry-After wins. */
                    baseDelayMs?: number;
                    /** @description The longest wait, at least baseDelayMs (default 8000). */
                    maxDelayMs?: number;
                };
                /** @description Pairs that share the primary's load: each turn starts at the next of [primary, ...balance] (round robin, one cooling down after a 429 taken last) and tries the others before any fallback. Not fallbacks: answeredBy.fallback stays false. */
                balance?: {
                    /**
                     * @description A provider id or the name of one of the owner's connections.
                     * @example provider_b
                     */
                    provider: string;
                    /** @example claude-3-5-haiku-latest */
                    model: string;
                }[];
                /** @description Pairs tried in order once the primary (and the balance members) are spent. */
                fallbacks?: {
                    /**
                     * @description A provider id or the name of one of the owner's connections.
                     * @example provider_b
                     */
                    provider: string;
                    /** @example claude-3-5-haiku-latest */
                    model: string;
                }[];
            } | null;
        };
        ModelConfig: {
            /** @example 5d8a3f2e-1b4c-4e6f-9a7d-3c2b1e0f9a8b */
            _id?: string;
            /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
            applicationId?: string;
            /** @example Support Bot */
            name?: string;
            /**
             * @description provider_a, provider_b, provider_c, provider_d, or the name of one of the connections of the application's owner (docs/connections.md).
             * @example provider_a
             */
            provider?: string;
            /** @example gpt-4o-mini */
            modelId?: string;
            isDefault?: boolean;
            settings?: components["schemas"]["ModelSettings"];
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        /** @description Updated after every answer of a conversation assigned to the version (or, for the control arm, answered by the config itself while it has active versions). Latency and tokens are averaged over successful answers; errorRate is failed requests / requestCount; userSatisfactionScore is the average rating (1-5) of the arm's rated answers. A figure without data is null, never 0: errorRate before the first request, avgLatencyMs and avgTokensUsed before the first successful answer, userSatisfactionScore before the first rating (for the control arm, also before its first counted answer: ratings of the config's answers from before the test are not the arm's). */
        VersionMetrics: {
            /** @example 120 */
            requestCount: number;
            /**
             * @description null before the first successful answer
             * @example 812.5
             */
            avgLatencyMs: number | null;
            /**
             * @description null before the first successful answer
             * @example 245.3
             */
            avgTokensUsed: number | null;
            /**
             * @description null before the first request
             * @example 0.02
             */
            errorRate: number | null;
            /**
             * @description null before the first rated answer
             * @example 4.25
             */
            userSatisfactionScore: number | null;
        };
        ModelConfigVersion: {
            /** @example 5d8a3f2e-1b4c-4e6f-9a7d-3c2b1e0f9a8b */
            _id?: string;
            /** @example 5d8a3f2e-1b4c-4e6f-9a7d-3c2b1e0f9a8b */
            configId?: string;
            /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
            applicationId?: string;
            /** @example v2 */
            version?: string;
            /** @example Warmer answers */
            label?: string;
            /**
             * @description provider_a, provider_b, provider_c, provider_d, or the name of one of the connections of the application's owner (docs/connections.md).
             * @example provider_a
             */
            provider?: string;
            /** @example gpt-4o-mini */
            modelId?: string;
            settings?: components["schemas"]["ModelSettings"];
            trafficPercent?: number;
            isActive?: boolean;
            metrics?: components["schemas"]["VersionMetrics"];
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        MessageRating: {
            /** @example 3b241101-e2bb-4255-8caf-4136c566a962 */
            conversationId?: string;
            /** @example f47ac10b-58cc-4372-a567-0e02b2c3d479 */
            messageId?: string;
            rating?: number;
        };
        /** @description An A/B test at a glance: the config's own share of the traffic (the control arm) beside its versions, with the same metrics. */
        ConfigComparison: {
            control?: {
                /** Format: uuid */
                configId?: string;
                /** @example Support answers */
                name?: string;
                /**
                 * @description provider_a, provider_b, provider_c, provider_d, or the name of one of the connections of the application's owner (docs/connections.md).
                 * @example provider_a
                 */
                provider?: string;
                /** @example gpt-4o-mini */
                modelId?: string;
                isDefault?: boolean;
                /**
                 * @description What the config's active versions leave it; only the default config's versions share live traffic.
                 * @example 40
                 */
                trafficPercent?: number;
                metrics?: components["schemas"]["VersionMetrics"];
            };
            versions?: components["schemas"]["ModelConfigVersion"][];
        };
        Notification: {
            /** Format: uuid */
            id?: string;
            /** @enum {string} */
            type?: "info" | "success" | "warning" | "error";
            /** @enum {string} */
            category?: "billing" | "team" | "knowledge" | "webhook" | "plugin" | "security";
            /** @example Order status */
            title?: string;
            /** @example {"ok":true} */
            body?: string;
            /** @example https://hooks.example.com/platform */
            actionUrl?: string | null;
            read?: boolean;
            /** Format: date-time */
            readAt?: string | null;
            /** Format: date-time */
            createdAt?: string;
        };
        PluginManifest: {
            /**
             * @description Slug, unique per owner
             * @example Support Bot
             */
            name: string;
            /** @example Profanity filter */
            displayName?: string;
            /**
             * @description SemVer
             * @example 1.2.0
             */
            version: string;
            /** @example Answers questions about orders and returns */
            description?: string;
            /**
             * @description The script's file name (.js)
             * @example index.js
             */
            main: string;
            permissions?: {
                /** @description Host names platform.fetch may reach (https only) */
                hosts?: string[];
                /** @description Platform events its webhook handlers receive */
                events?: string[];
            };
            settings?: {
                [key: string]: {
                    /** @enum {string} */
                    type?: "string" | "number" | "boolean" | "array" | "object";
                    /** @example mild */
                    items?: string;
                    secret?: boolean;
                    required?: boolean;
                    default?: unknown;
                    /** @example Answers questions about orders and returns */
                    description?: string;
                };
            };
        };
        Plugin: {
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            id?: string;
            /** @example Support Bot */
            name?: string;
            /** @example Profanity filter */
            displayName?: string;
            /** @example 1.2.0 */
            version?: string;
            /** @example Answers questions about orders and returns */
            description?: string;
            manifest?: components["schemas"]["PluginManifest"];
            published?: boolean;
            /** Format: date-time */
            publishedAt?: string | null;
            isOwner?: boolean;
            /**
             * @description Only for the owner, or once published; never in lists
             * @example export default { hooks: { 'message:beforeSend': (m) => m } }
             */
            source?: string;
            versions?: {
                /** @example 1.2.0 */
                version?: string;
                current?: boolean;
            }[];
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        PluginInstallation: {
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            id?: string;
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            pluginId?: string;
            /** @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f */
            applicationId?: string;
            /** @example Support Bot */
            name?: string;
            /** @example Profanity filter */
            displayName?: string;
            /** @enum {string} */
            state?: "installed" | "activated" | "deactivated";
            /** @example 1.2.0 */
            version?: string;
            /** @description Plain values; a secret setting shows as { secret: true, set: true } */
            settings?: Record<string, never>;
            counters?: {
                calls?: number;
                failures?: number;
                consecutiveFailures?: number;
            };
            /** @example the receiver answered 500 */
            lastError?: string | null;
            /** Format: date-time */
            lastErrorAt?: string | null;
            /**
             * @description Why the circuit breaker deactivated it (5 failures in a row)
             * @example hook message:beforeSend failed 5 times in a row: timed out after 50 ms
             */
            deactivationReason?: string | null;
            /** Format: date-time */
            installedAt?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        PromptTemplate: {
            /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
            id?: string;
            /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
            applicationId?: string;
            /** @example Support Bot */
            name?: string;
            /** @example How many days do I have to return a widget? */
            content?: string;
            /** @description Placeholder names in order of first appearance */
            variables?: string[];
            isDefault?: boolean;
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        /** @description A saved own key: hints only, never the key. */
        ProviderKey: {
            /** @example provider_a */
            provider: string;
            /**
             * @description The key's last 4 characters
             * @example x7Qa
             */
            keyHint: string;
            isActive: boolean;
            /**
             * Format: date-time
             * @description Last chat answered with this key
             */
            lastUsedAt: string | null;
            /**
             * Format: date-time
             * @description Last successful validation
             */
            lastValidatedAt: string | null;
        };
        SavedProviderKey: {
            /** @example provider_a */
            provider: string;
            /** @example x7Qa */
            keyHint: string;
            isActive: boolean;
        };
        ProviderKeyValidation: {
            /** @constant */
            valid: true;
            /** @example provider_a */
            provider: string;
            models: string[];
        } | {
            /** @constant */
            valid: false;
            /** @example provider_a */
            provider: string;
            /**
             * @description The provider's reason, with the key itself masked
             * @example Bad Request
             */
            error: string;
        };
        PublicChatRequest: {
            /** @example How many days do I have to return a widget? */
            message: string;
            /** Format: uuid */
            applicationId: string;
            /**
             * Format: uuid
             * @description Continue a conversation this key started
             */
            conversationId?: string;
        };
        PublicAnswer: {
            /** Format: uuid */
            conversationId?: string;
            message?: {
                /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
                id?: string;
                /** @constant */
                role?: "assistant";
                /** @example How many days do I have to return a widget? */
                content?: string;
                /** Format: date-time */
                createdAt?: string;
            };
            usage?: {
                promptTokens?: number;
                completionTokens?: number;
                totalTokens?: number;
            };
            /** @example provider_a */
            provider?: string;
            /** @example gpt-4o-mini */
            model?: string;
            /** @description The knowledge-base passages the answer drew on (absent when none): show them as citations. */
            sources?: components["schemas"]["MessageSource"][];
            /** @description The tools the model called (run server-side), absent when none. */
            toolCalls?: {
                /** @example call_1 */
                id?: string;
                /** @example order_status */
                name?: string;
                /**
                 * @example {
                 *       "order": "123456"
                 *     }
                 */
                arguments?: unknown;
                isError?: boolean;
                durationMs?: number;
            }[];
            /**
             * @description Set when a limit ended the turn's tool use (docs/tools.md).
             * @enum {unknown}
             */
            stoppedBy?: "maxToolRounds" | "timeBudget";
        };
        PublicApplication: {
            /** Format: uuid */
            id?: string;
            /** @example Support Bot */
            name?: string;
            /** @example support-bot */
            slug?: string;
            /** @example Answers questions about orders, shipping and returns */
            description?: string;
            theme?: {
                /** @example dark */
                themeId?: string | null;
                colors?: {
                    [key: string]: string;
                };
                /** @description the resolved theme as CSS custom properties */
                variables?: {
                    [key: string]: string;
                };
            };
            branding?: {
                /** @example bottom-right */
                position?: string | null;
                /** @example Hi! How can we help? */
                welcomeMessage?: string | null;
                /** @example Ask a question… */
                placeholder?: string | null;
                /** @example .message { letter-spacing: .01em } */
                customCss?: string;
                showAttribution?: boolean;
            };
        };
        PublicConversation: {
            /** Format: uuid */
            id?: string;
            /** Format: uuid */
            applicationId?: string;
            /** @example Returns question */
            title?: string;
            /** Format: date-time */
            createdAt?: string;
            messages?: {
                /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
                id?: string;
                /** @enum {unknown} */
                role?: "user" | "assistant" | "tool";
                /** @example How many days do I have to return a widget? */
                content?: string;
                /** Format: date-time */
                createdAt?: string;
                /** @description On answers that drew on the knowledge base. */
                sources?: components["schemas"]["MessageSource"][];
                /** @description On an assistant message that called tools. */
                toolCalls?: {
                    /** @example call_1 */
                    id?: string;
                    /** @example order_status */
                    name?: string;
                    /**
                     * @example {
                     *       "order": "123456"
                     *     }
                     */
                    arguments?: unknown;
                }[];
                /**
                 * @description On a `tool` message: the call it answers.
                 * @example call_1
                 */
                toolCallId?: string;
                /**
                 * @description On a `tool` message: the tool's name.
                 * @example order_status
                 */
                name?: string;
                /** @description On a `tool` message: whether its content is an error. */
                isError?: boolean;
            }[];
        };
        WidgetAccess: {
            allowed: boolean;
            /**
             * @description The asking page's origin (null without one).
             * @example https://shop.example.com
             */
            origin: string | null;
            /** @constant */
            reason?: "origin_not_allowed";
            /**
             * @description What to tell the site owner.
             * @example This chat is not enabled on https://shop.example.com. The site owner can enable it by adding https://shop.example.com to the application's allowed origins (allowedOrigins).
             */
            message?: string;
        };
        Identity: {
            /** Format: uuid */
            id?: string;
            /** @enum {string} */
            provider?: "github" | "google" | "oidc" | "saml";
            /** Format: email */
            email?: string | null;
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            lastLoginAt?: string;
        };
        SsoConfig: {
            /** Format: uuid */
            id?: string;
            /** Format: uuid */
            teamId?: string;
            /** @enum {string} */
            protocol?: "oidc" | "saml";
            enabled?: boolean;
            /** @description Members must sign in through SSO: password and OAuth logins answer 403 */
            enforced?: boolean;
            oidc?: {
                /** @example https://acme.okta.com/oauth2/default */
                issuer?: string;
                /** @example 0oa1b2c3d4e5f6g7h8i9 */
                clientId?: string;
                /** @example openid email profile groups */
                scopes?: string;
                /** @constant */
                clientSecretSet?: true;
            } | null;
            saml?: {
                /** @example http://www.okta.com/exk1a2b3c4d5e6f7g8h9 */
                entityId?: string;
                /** @example https://acme.okta.com/app/acme_platform_1/exk1a2b3c4d5e6f7g8h9/sso/saml */
                ssoUrl?: string;
                /**
                 * @example -----BEGIN CERTIFICATE-----
                 *     MIIDqDCCApCgAwIBAgIGAY...
                 *     -----END CERTIFICATE-----
                 */
                certificate?: string;
            } | null;
            /** @description Which claim (OIDC) or attribute (SAML) holds what */
            attributeMapping?: {
                /**
                 * @description Defaults: `email` for both protocols; SAML falls back to an e-mail NameID
                 * @example email
                 */
                email?: string;
                /**
                 * @description Defaults: `name` (OIDC), `displayName` (SAML)
                 * @example name
                 */
                displayName?: string;
                /**
                 * @description The claim or attribute with the person's groups or role (one value or a list)
                 * @example groups
                 */
                groups?: string;
                /**
                 * @description Group or role values mapped to team roles; the highest match wins, no match gives defaultRole
                 * @example {
                 *       "okta-platform-admins": "admin",
                 *       "okta-readers": "viewer"
                 *     }
                 */
                roles?: {
                    [key: string]: "admin" | "member" | "viewer";
                };
            };
            allowedDomains?: string[];
            /** @enum {string} */
            defaultRole?: "admin" | "member" | "viewer";
            /** @description What to register at the identity provider */
            endpoints?: {
                /**
                 * Format: uri
                 * @description Where members start signing in
                 */
                login?: string;
                /** Format: uri */
                oidcRedirectUri?: string;
                /**
                 * Format: uri
                 * @description Assertion consumer service (HTTP-POST)
                 */
                samlAcsUrl?: string;
                /**
                 * Format: uri
                 * @description The platform's entity id, the audience
                 */
                samlEntityId?: string;
            };
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        SsoConfigInput: {
            /** @enum {string} */
            protocol: "oidc" | "saml";
            /** @default true */
            enabled: boolean;
            /** @default false */
            enforced: boolean;
            /** @description For protocol oidc; fields left out keep their saved values (the secret is required the first time) */
            oidc?: {
                /** @example https://acme.okta.com/oauth2/default */
                issuer?: string;
                /** @example 0oa1b2c3d4e5f6g7h8i9 */
                clientId?: string;
                /**
                 * @description Stored encrypted, never shown again
                 * @example kP9x-2mVQ7rT4wZ8yB1nC6dF3gH5jL0s
                 */
                clientSecret?: string;
                /**
                 * @description `openid` is always added
                 * @example openid email profile groups
                 */
                scopes?: string;
            };
            /** @description For protocol saml: the IdP's metadata XML, or its entity id, SSO URL and signing certificate */
            saml?: {
                /** @example <md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://www.okta.com/exk1">...</md:EntityDescriptor> */
                metadataXml?: string;
                /** @example http://www.okta.com/exk1a2b3c4d5e6f7g8h9 */
                entityId?: string;
                /** @example https://acme.okta.com/app/acme_platform_1/exk1a2b3c4d5e6f7g8h9/sso/saml */
                ssoUrl?: string;
                /**
                 * @example -----BEGIN CERTIFICATE-----
                 *     MIIDqDCCApCgAwIBAgIGAY...
                 *     -----END CERTIFICATE-----
                 */
                certificate?: string;
            };
            /** @description Which claim (OIDC) or attribute (SAML) holds what */
            attributeMapping?: {
                /**
                 * @description Defaults: `email` for both protocols; SAML falls back to an e-mail NameID
                 * @example email
                 */
                email?: string;
                /**
                 * @description Defaults: `name` (OIDC), `displayName` (SAML)
                 * @example name
                 */
                displayName?: string;
                /**
                 * @description The claim or attribute with the person's groups or role (one value or a list)
                 * @example groups
                 */
                groups?: string;
                /**
                 * @description Group or role values mapped to team roles; the highest match wins, no match gives defaultRole
                 * @example {
                 *       "okta-platform-admins": "admin",
                 *       "okta-readers": "viewer"
                 *     }
                 */
                roles?: {
                    [key: string]: "admin" | "member" | "viewer";
                };
            };
            /** @description Only these e-mail domains may sign in; empty: any */
            allowedDomains?: string[];
            /**
             * @default member
             * @enum {string}
             */
            defaultRole: "admin" | "member" | "viewer";
        };
        SsoSession: {
            user?: {
                /** Format: uuid */
                id?: string;
                /** Format: email */
                email?: string;
                /** @example Ada Lovelace */
                displayName?: string;
                /** @enum {string} */
                role?: "admin" | "developer" | "user";
                /** Format: date-time */
                createdAt?: string;
            };
            /** @example eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI3YzllIn0.sig */
            access_token?: string;
            /** @example eyJhbGciOiJIUzI1NiJ9.eyJ0aWQiOiIxIn0.sig */
            refresh_token?: string;
        };
        /** @description The model settings without the system prompt (that is `instructions`): temperature 0-2 (0-1 for provider_c), maxTokens 1-128000 and at most the model's own maximum, topP 0-1, frequencyPenalty and presencePenalty -2 to 2. Missing values take their defaults (0.7, 2048, 1.0); `null` clears an optional one. */
        StudioSettings: {
            temperature?: number;
            maxTokens?: number;
            topP?: number;
            frequencyPenalty?: number;
            presencePenalty?: number;
        };
        /** @description An application's configuration as the studio edits it: the draft, and each published version's snapshot. */
        StudioConfig: {
            /**
             * @description The system prompt; `{{name}}` placeholders are filled from `variables`
             * @example You are {{botName}}, the support assistant of Acme. Answer in two sentences.
             */
            instructions?: string;
            /** @description A value for each placeholder (at most 50, each at most 2000 characters): what end users get; the debug chat may give others */
            variables?: {
                [key: string]: string;
            };
            /**
             * @description provider_a, provider_b, provider_c, provider_d, or the name of one of the connections of the application's owner (docs/connections.md).
             * @example provider_a
             */
            provider?: string;
            /** @example gpt-4o-mini */
            modelId?: string;
            settings?: components["schemas"]["StudioSettings"];
            /** @example Hello! Ask me anything about your order. */
            openingMessage?: string;
            suggestedQuestions?: string[];
            /** @description This draft's own knowledge retrieval settings (its debug chat uses them; publishing makes them the application's); absent: the application's. The knowledge bases used stay the application's. */
            retrieval?: {
                /**
                 * @description null: the application's retrieval.mode
                 * @enum {string|null}
                 */
                mode?: "hybrid" | "vector" | "keyword" | null;
                /**
                 * @description Chunks at most in the prompt and the sources
                 * @default 8
                 */
                topK: number;
                /** @description The lowest cosine score a chunk needs to reach the prompt and the sources; null: each embedder's own floor */
                scoreThreshold?: number | null;
                /** @default false */
                rerank: boolean;
            };
        };
        /** @description What end users get now and where each value comes from, by the one precedence rule (docs/studio.md). */
        StudioLiveConfiguration: {
            /** @example provider_a */
            provider?: string;
            /** @example gpt-4o-mini */
            modelId?: string;
            /**
             * @example model_config
             * @enum {string}
             */
            modelFrom?: "studio_draft" | "request" | "ab_version" | "model_config" | "prompt_template" | "provider_default" | "none";
            modelConfig?: {
                /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
                id?: string;
                /** @example Greeter */
                name?: string;
            } | null;
            /** @example You are Ada, the support assistant of Acme. */
            systemPrompt?: string | null;
            /**
             * @example model_config
             * @enum {string}
             */
            systemPromptFrom?: "studio_draft" | "request" | "ab_version" | "model_config" | "prompt_template" | "provider_default" | "none";
            template?: {
                /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
                id?: string;
                /** @example Greeter */
                name?: string;
            } | null;
            /** @description The default prompt template when it exists but does not apply, because the model config's own system prompt wins */
            unusedTemplate?: {
                /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
                id?: string;
                /** @example Greeter */
                name?: string;
            } | null;
            abTest?: {
                defaultConfigPercent?: number;
                versions?: {
                    /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
                    id?: string;
                    /** @example Studio version 2 */
                    label?: string;
                    trafficPercent?: number;
                    /** @example provider_a */
                    provider?: string;
                    /** @example gpt-4o-mini */
                    modelId?: string;
                    /**
                     * @example model_config
                     * @enum {string}
                     */
                    systemPromptFrom?: "studio_draft" | "request" | "ab_version" | "model_config" | "prompt_template" | "provider_default" | "none";
                }[];
            } | null;
            /** @description The latest published version while the live config still is exactly it */
            publishedVersion?: number | null;
            /** @description A version was published and the model config was changed elsewhere since */
            changedOutsideStudio?: boolean;
        };
        StudioDraft: {
            /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
            applicationId?: string;
            /** @example Support Bot */
            applicationName?: string;
            config?: components["schemas"]["StudioConfig"];
            /** @description The placeholders the instructions use, in order */
            variables?: string[];
            /** @description False until the draft is first saved (it is then the live configuration) */
            saved?: boolean;
            /**
             * Format: date-time
             * @example 2026-11-28T10:00:00.000Z
             */
            updatedAt?: string | null;
            basedOnVersion?: number | null;
            latestVersion?: number | null;
            unpublishedChanges?: boolean;
            live?: components["schemas"]["StudioLiveConfiguration"];
            /** @description Allowed ranges of the settings, shown before a save */
            ranges?: {
                /** @description Per provider */
                temperature?: {
                    [key: string]: {
                        min?: number;
                        max?: number;
                    };
                };
                maxTokens?: {
                    min?: number;
                    max?: number;
                };
                topP?: {
                    min?: number;
                    max?: number;
                };
                frequencyPenalty?: {
                    min?: number;
                    max?: number;
                };
                presencePenalty?: {
                    min?: number;
                    max?: number;
                };
            };
            /** @description Whether your role may save, publish, restore and start A/B tests */
            canEdit?: boolean;
        };
        StudioVersion: {
            /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
            id?: string;
            number?: number;
            /** @example Shorter answers */
            note?: string;
            publishedBy?: {
                /** @example 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d */
                id?: string;
                /** @example ada@example.com */
                email?: string;
            } | null;
            /**
             * Format: date-time
             * @example 2026-11-28T10:00:00.000Z
             */
            publishedAt?: string;
            config?: components["schemas"]["StudioConfig"];
        };
        StudioDiff: {
            from?: {
                /** @example Version 1 */
                label?: string;
                version?: number | null;
            };
            to?: {
                /** @example Draft */
                label?: string;
                version?: number | null;
            };
            fields?: {
                /** @example instructions */
                field?: string;
                /** @example Instructions */
                label?: string;
                /** @example You are Ada. */
                from?: string;
                /** @example You are Bo. */
                to?: string;
                changed?: boolean;
            }[];
            changed?: number;
        };
        Team: {
            /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
            id: string;
            /** @example Support Crew */
            name: string;
            /** @example support-crew */
            slug: string;
            /** @example The people behind the support bot */
            description: string;
            settings: components["schemas"]["TeamSettings"];
            /**
             * @description The caller's role in the team
             * @example owner
             * @enum {string}
             */
            role: "owner" | "admin" | "member" | "viewer";
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        TeamSettings: {
            /**
             * @description The provider a team application's turn uses when neither the request nor its model config names one
             * @example provider_a
             * @enum {string|null}
             */
            defaultProvider?: "provider_a" | "provider_b" | "provider_c" | "provider_d" | null;
            /** @description Whether the team's own provider keys answer its applications' turns (and bypass the Owner's token quota) */
            sharedProviderKeys?: boolean;
            /** @description Whether Members, not only Admins and the Owner, may invite (Members and Viewers) */
            membersMayInvite?: boolean;
        };
        TeamMember: {
            /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
            userId: string;
            /** @example ada@example.com */
            email: string;
            /** @example Ada Lovelace */
            displayName: string;
            /**
             * @example member
             * @enum {string}
             */
            role: "owner" | "admin" | "member" | "viewer";
            /** Format: date-time */
            joinedAt: string;
        };
        TeamInvitation: {
            /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
            id: string;
            /** @example 7c9e6679-7425-40de-944b-e07fc1f90ae7 */
            teamId: string;
            /** @example grace@example.com */
            email: string;
            /**
             * @example member
             * @enum {string}
             */
            role: "admin" | "member" | "viewer";
            /**
             * Format: date-time
             * @description Seven days after the invitation
             */
            expiresAt: string;
            /** Format: date-time */
            acceptedAt: string | null;
            /** Format: date-time */
            createdAt: string;
        };
        TeamProviderKey: {
            /** @example provider_a */
            provider: string;
            /**
             * @description The key's last 4 characters
             * @example x7Qa
             */
            keyHint: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        Theme: {
            /**
             * @description a preset name (default, dark, minimal, vibrant) or a UUID
             * @example 3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f
             */
            id?: string;
            /** @example Support Bot */
            name?: string;
            /** @example Answers questions about orders and returns */
            description?: string;
            preset?: boolean;
            own?: boolean;
            published?: boolean;
            /** @example dark */
            extend?: string | null;
            /** @description the complete theme: colors (14), typography (4), layout (5), custom */
            definition?: Record<string, never>;
            /** @description CSS custom properties: --ap-color-*, --ap-<typography>, --ap-layout-*, --ap-custom-* */
            variables?: {
                [key: string]: string;
            };
            /** Format: date-time */
            createdAt?: string | null;
        };
        ToolSource: {
            /** @constant */
            type: "http";
            /**
             * @default POST
             * @enum {string}
             */
            method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
            /**
             * @description https URL (http only with WEBHOOKS_ALLOW_HTTP), no credentials; {{args.NAME}} fills the path or query (URL-encoded), never the host. Called through the SSRF-safe client: public addresses only (and the ranges WEBHOOKS_ALLOWED_PRIVATE_CIDRS holds), no redirects followed. A save applies the same check as the call: a URL the call would refuse is a 400 naming source.url with the reason.
             * @example https://api.weather.example/v1/now?city={{args.city}}
             */
            url: string;
            /**
             * @description Header values may hold {{secrets.NAME}}, filled at call time only.
             * @example {
             *       "Authorization": "Bearer {{secrets.TOKEN}}"
             *     }
             */
            headers?: {
                [key: string]: string;
            };
            /** @description Hosts the filled URL may reach (the URL's own host when empty); when given, it must hold the URL's host (a 400 naming source.allowedHosts otherwise: every call would be refused) */
            allowedHosts?: string[];
        } | {
            /** @constant */
            type: "builtin";
            /** @constant */
            builtin: "search_knowledge";
        } | {
            /** @constant */
            type: "builtin";
            /** @constant */
            builtin: "run_workflow";
            /** Format: uuid */
            workflowId: string;
        };
        Tool: {
            /** Format: uuid */
            id?: string;
            /** Format: uuid */
            applicationId?: string;
            /** @example get_weather */
            name?: string;
            /** @example The current weather of a city */
            description?: string;
            /**
             * @description JSON Schema (draft-07) of the arguments, an object at the top, at most 16 KB; checked with Ajv in strict mode on save (unknown keywords refused).
             * @example {
             *       "type": "object",
             *       "properties": {
             *         "city": {
             *           "type": "string",
             *           "enum": [
             *             "Lisbon",
             *             "Oslo"
             *           ]
             *         }
             *       },
             *       "required": [
             *         "city"
             *       ]
             *     }
             */
            parameters?: Record<string, never>;
            source?: components["schemas"]["ToolSource"];
            /** @default 10000 */
            timeoutMs: number;
            secretNames?: string[];
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        AgentSettings: {
            /** @description Names of the application's tools offered to the model. */
            enabledTools?: string[];
            toolChoice?: ("auto" | "none" | "required") | {
                /** @example get_weather */
                name: string;
            };
            /** @default 5 */
            maxToolRounds: number;
            /** @default 60000 */
            timeBudgetMs: number;
            /** @default true */
            parallelCalls: boolean;
        };
        /** @description A tool an active plugin installation declares in definePlugin({ tools }); listed, never created through /tools. */
        PluginToolSource: {
            /** @constant */
            type?: "plugin";
            /** Format: uuid */
            pluginId?: string;
            /** Format: uuid */
            installationId?: string;
            /** @example opening_hours */
            tool?: string;
        };
        /** @description A tool of a connected MCP server, offered as <server name>_<tool name>; listed, never created through /tools. */
        McpToolSource: {
            /** @constant */
            type?: "mcp";
            /** Format: uuid */
            serverId?: string;
            /** @example search_docs */
            tool?: string;
        };
        AvailableTool: {
            /**
             * @description What the agent settings enable and the model calls
             * @example docs_search_docs
             */
            name?: string;
            /** @example Searches the product documentation */
            description?: string;
            /** @description JSON Schema of the arguments */
            parameters?: Record<string, never>;
            source?: components["schemas"]["ToolSource"] | components["schemas"]["PluginToolSource"] | components["schemas"]["McpToolSource"];
            /** @enum {string} */
            origin?: "application" | "plugin" | "mcp";
            timeoutMs?: number;
            /** @description false when the tool cannot be offered (its name is taken by an earlier tool, or an MCP tool's name or schema does not fit) */
            available?: boolean;
            /**
             * @description Why it is not available
             * @example the name search is already taken by one of the application's own tools
             */
            reason?: string;
        };
        McpServer: {
            /** Format: uuid */
            id?: string;
            /** Format: uuid */
            applicationId?: string;
            /**
             * @description Unique per application; prefixes its tools' names (docs_search)
             * @example docs
             */
            name?: string;
            /**
             * @description https (http only with WEBHOOKS_ALLOW_HTTP), no credentials; refused when the host is or resolves to a loopback, private, link-local (169.254.169.254) or other reserved address, unless WEBHOOKS_ALLOWED_PRIVATE_CIDRS holds it
             * @example https://mcp.example.com/mcp
             */
            url?: string;
            /**
             * @description auto: Streamable HTTP, then the legacy HTTP+SSE transport if the server does not speak it
             * @default auto
             * @enum {string}
             */
            transport: "auto" | "streamable-http" | "sse";
            /** @description The names of the headers set. Header values are write-only: sealed at rest, never answered or exported. */
            headerNames?: string[];
            secretNames?: string[];
            timeoutMs?: number;
            /** @description The cached tool list of the last refresh */
            tools?: {
                /** @example search */
                name?: string;
                /** @example Searches the product documentation */
                description?: string;
                inputSchema?: Record<string, never>;
                /** @example docs_search */
                exposedAs?: string;
                /**
                 * @description Why the model is not offered it
                 * @example its input schema is over 16 KB
                 */
                problem?: string;
            }[];
            /** @enum {string|null} */
            connectedWith?: "streamable-http" | "sse" | null;
            /** Format: date-time */
            toolsRefreshedAt?: string | null;
            /**
             * @description Why the last listing failed (never a secret)
             * @example the server refused the credentials (HTTP 401)
             */
            lastError?: string | null;
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        Upload: {
            /** Format: uuid */
            id?: string;
            /**
             * @description The client's name, cleaned; the stored file has a name made by the server
             * @example refund-policy.md
             */
            fileName?: string;
            /** @enum {string} */
            mimeType?: "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "application/json" | "application/zip" | "text/plain" | "text/csv" | "text/markdown";
            /** @enum {string} */
            kind?: "image" | "json" | "zip" | "text" | "markdown";
            /** @description Bytes */
            size?: number;
            /**
             * @description Where the content is served, as an attachment
             * @example /api/uploads/7c9e6679-7425-40de-944b-e07fc1f90ae7/content
             */
            url?: string;
            /** Format: date-time */
            createdAt?: string;
        };
        Webhook: {
            /** Format: uuid */
            id?: string;
            /** Format: uri */
            url?: string;
            events?: ("message.received" | "message.completed" | "conversation.started" | "conversation.archived" | "application.created" | "application.deleted" | "plugin.activated" | "plugin.deactivated" | "api_key.revoked" | "usage.limit_reached" | "subscription.updated" | "workflow.event" | "experiment.decided")[];
            /**
             * Format: uuid
             * @description Only this application's events; null: all of yours
             */
            applicationId?: string | null;
            /** @example Answers questions about orders and returns */
            description?: string;
            enabled?: boolean;
            /**
             * @description Set when deliveries failed for 5 days or 100 attempts in a row
             * @example every delivery failed for 5 days
             */
            disabledReason?: string | null;
            /** @description Delivery attempts made */
            totalDeliveries?: number;
            failedDeliveries?: number;
            /** @example the receiver answered 500 */
            lastError?: string | null;
            /** Format: date-time */
            lastDeliveryAt?: string | null;
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        CreatedWebhook: components["schemas"]["Webhook"] & {
            /**
             * @description Standard Webhooks signing secret; shown only in this answer
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret?: string;
        };
        /** @description One attempt of the delivery log */
        WebhookDelivery: {
            /** Format: uuid */
            id?: string;
            /** Format: uuid */
            deliveryId?: string;
            /** @example evt_5f0c… */
            eventId?: string;
            /** @example message.completed */
            eventType?: string;
            attempt?: number;
            /** @enum {string} */
            outcome?: "succeeded" | "failed" | "timeout" | "refused";
            statusCode?: number | null;
            durationMs?: number;
            /** @example the receiver answered 500 */
            error?: string | null;
            /** Format: date-time */
            nextRetryAt?: string | null;
            /** @enum {string} */
            deliveryStatus?: "pending" | "sending" | "succeeded" | "failed";
            /** Format: date-time */
            createdAt?: string;
        };
        /** @description One step. Common fields: id, kind, next (a step id, or null to end; default: the next in the list), retry { attempts 1-5, backoffMs }. By kind: llm { prompt, provider?, model?, settings? }; knowledge { query, limit? }; http { method, url, headers?, body? }; template { text }; condition { expression (JSONata), then, else, maxIterations? }; plugin { pluginId, method, path, body? }; webhook { data }; wait { ms }. Text fields may hold {{input.<path>}} and {{steps.<id>.output.<path>}}. */
        WorkflowStep: {
            /** @example summarise */
            id: string;
            /** @enum {string} */
            kind: "llm" | "knowledge" | "http" | "template" | "condition" | "plugin" | "webhook" | "wait";
            /** @example notify */
            next?: string | null;
            /** @example Summarise: {{input.text}} */
            prompt?: string;
            /** @example Summary: {{steps.summarise.output.text}} */
            text?: string;
            /** @example refund policy */
            query?: string;
            /** @example https://api.example.com/leads */
            url?: string;
            /** @enum {string} */
            method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
            /** @example steps.score.output.status = 200 */
            expression?: string;
            /** @example notify */
            then?: string | null;
            /** @example skip */
            else?: string | null;
            ms?: number;
            /** Format: uuid */
            pluginId?: string;
            /** @example /score */
            path?: string;
            data?: Record<string, never>;
            retry?: {
                attempts?: number;
                backoffMs?: number;
            };
        };
        WorkflowLimits: {
            maxSteps?: number;
            timeoutMs?: number;
            maxTokens?: number;
        };
        WorkflowTrigger: {
            schedule?: {
                /** @example 0 9 * * 1-5 */
                cron?: string;
                /** @example Europe/Berlin */
                timezone?: string;
            } | null;
            /** @enum {string|null} */
            event?: "message.received" | "message.completed" | "conversation.started" | "conversation.archived" | "application.created" | "application.deleted" | "plugin.activated" | "plugin.deactivated" | "api_key.revoked" | "usage.limit_reached" | "subscription.updated" | "workflow.event" | null;
        } | null;
        Workflow: {
            /** Format: uuid */
            id?: string;
            /** Format: uuid */
            applicationId?: string;
            /** @example Qualify lead */
            name?: string;
            /** @example Scores inbound leads */
            description?: string;
            version?: number;
            paused?: boolean;
            steps?: components["schemas"]["WorkflowStep"][];
            allowedHosts?: string[];
            limits?: components["schemas"]["WorkflowLimits"];
            trigger?: components["schemas"]["WorkflowTrigger"];
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
            /** @description Names of the workflow's secrets */
            secrets?: string[];
        };
        WorkflowRun: {
            /** Format: uuid */
            id?: string;
            /** Format: uuid */
            workflowId?: string;
            version?: number;
            /** @enum {string} */
            status?: "queued" | "running" | "completed" | "failed" | "cancelled";
            /** @enum {string} */
            trigger?: "manual" | "api" | "schedule" | "event";
            input?: unknown;
            output?: unknown;
            /** @example The run reached its limit of 50 steps before step "tick" */
            error?: string | null;
            stepsDone?: number;
            tokensUsed?: number;
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            startedAt?: string | null;
            /** Format: date-time */
            finishedAt?: string | null;
        };
        WorkflowRunStep: {
            seq?: number;
            /** @example summarise */
            stepId?: string;
            /** @example llm */
            kind?: string;
            /** @enum {string} */
            status?: "completed" | "failed";
            input?: unknown;
            output?: unknown;
            /** @example 127.0.0.1 answered 503 */
            error?: string | null;
            attempts?: number;
            tokens?: number;
            durationMs?: number;
            /** Format: date-time */
            startedAt?: string;
            /** Format: date-time */
            finishedAt?: string;
        };
        ApplicationTemplate: {
            /** @example support-bot */
            id?: string;
            /** @example Support bot with a knowledge base */
            name?: string;
            /** @example Answers customer questions from your help articles */
            description?: string;
            /** @enum {string} */
            firstStep?: "chat" | "run";
            /** @example default */
            theme?: string;
            /** @example provider_a */
            provider?: string;
            /** @example gpt-4o-mini */
            model?: string;
            workflows?: {
                /** @example Qualify lead */
                name?: string;
                /** @example Scores inbound leads */
                description?: string;
            }[];
            knowledgeDocuments?: string[];
            exampleInput?: Record<string, never>;
        };
        DeployedTemplate: {
            /** @example lead-qualifier */
            template?: string;
            application?: {
                /** Format: uuid */
                id?: string;
                /** @example Lead qualifier */
                name?: string;
                /** @example lead-qualifier-3fa2b1c4 */
                slug?: string;
            };
            modelConfig?: {
                /** Format: uuid */
                id?: string;
                /** @example provider_a */
                provider?: string;
                /** @example gpt-4o-mini */
                model?: string;
            };
            prompt?: {
                /** Format: uuid */
                id?: string;
                /** @example Support tone */
                name?: string;
            } | null;
            /** @example dark */
            theme?: string;
            workflows?: {
                /** Format: uuid */
                id?: string;
                /** @example Qualify lead */
                name?: string;
            }[];
            knowledgeDocuments?: {
                /** Format: uuid */
                id?: string;
                /** @example refunds.md */
                fileName?: string;
            }[];
            exampleInput?: Record<string, never>;
        };
    };
    responses: {
        /** @description Error */
        Error: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The provider refused the provider key the request ran on: the message names the provider and the key's last 4 characters. Replace or check the key; your session is fine (this is never a 401). */
        FailedDependency: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "statusCode": 424,
                 *       "message": "provider_a (OpenAI) rejected the API key ending in \"x7Qa\": check it, or save a working provider_a (OpenAI) key, under Provider keys",
                 *       "error": "Failed Dependency"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Requests the key may make per window (its rate limit per minute) */
        XRateLimitLimit: number;
        /** @description Requests left in the current window */
        XRateLimitRemaining: number;
        /** @description When the window resets, as a Unix time in seconds */
        XRateLimitReset: number;
        /** @description IETF draft (httpapi-ratelimit-headers): `"api-key";q=<limit>;w=60` */
        RateLimitPolicy: string;
        /** @description IETF draft: `"api-key";r=<remaining>;t=<seconds to reset>` */
        RateLimit: string;
        /** @description Seconds until the key may call again */
        RetryAfter: number;
        /** @description The conversation this answer belongs to (also in the body / the `done` event) */
        XConversationId: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
