import { BarChart3, BookOpen, FlaskConical, Hammer, LayoutDashboard, ScrollText, Send, Settings, Wrench, type LucideIcon } from 'lucide-react';
import type { ComponentType } from 'react';

/**
 * A screen shown in an application's tab. It gets the application's id as a prop and the application itself from
 * `useApplicationContext()` (an existing area screen built on `ApplicationScope` needs neither: the scope takes the
 * application from the page and shows no picker).
 */
export type TabScreen = ComponentType<{ applicationId: string }>;
type Load = () => Promise<{ default: TabScreen }>;

/** One tab of the application level: `/applications/:appId/<id>`, its screens shown one under the other. */
export interface ApplicationTab {
  id: string;
  label: string;
  icon: LucideIcon;
  screens: Load[];
}

const tab = (id: string, label: string, icon: LucideIcon, ...screens: Load[]): ApplicationTab => ({ id, label, icon, screens });

/** An area screen together with its area's stylesheet (which the area's `area.tsx` imports on the workspace route). */
const withCss = (screen: Promise<{ default: TabScreen }>, css: Promise<unknown>) => Promise.all([screen, css]).then(([m]) => m);

/**
 * The application level's tabs, in order, ONE line each (docs/console.md "The two levels"). A tab's screens are
 * lazy chunks, loaded on its first visit.
 */
export const TABS: ApplicationTab[] = [
  tab('overview', 'Overview', LayoutDashboard, () => import('../routes/applications/Overview')),
  // The studio first; under it the model configs it publishes to (with their A/B versions) and the prompt templates.
  tab('build', 'Build', Hammer, () => withCss(import('../routes/studio/Build'), import('../routes/studio/studio.css')), () => withCss(import('../routes/model-configs/ModelConfigs'), import('../routes/model-configs/model-configs.css')), () => withCss(import('../routes/prompts/Prompts'), import('../routes/prompts/prompts.css'))),
  tab('knowledge', 'Knowledge', BookOpen, () => withCss(import('../routes/knowledge/Knowledge'), import('../components/knowledge/knowledge.css')), () => import('../routes/uploads/Uploads')),
  tab('tools', 'Tools', Wrench, () => import('../routes/tools/Tools')),
  tab('logs', 'Logs', ScrollText, () => withCss(import('../routes/logs/Logs'), import('../routes/logs/logs.css')), () => import('../routes/logs/Annotations')),
  tab('evaluate', 'Evaluate', FlaskConical, () => import('../routes/evaluations/Evaluations')),
  tab('analytics', 'Analytics', BarChart3, () => import('../routes/analytics/Analytics')),
  tab('publish', 'Publish & embed', Send, () => import('../routes/api-keys/ApiKeys'), () => withCss(import('../routes/branding/Branding'), import('../routes/branding/branding.css')), () => withCss(import('../routes/domains/Domains'), import('../routes/domains/domains.css'))),
  tab('settings', 'Settings', Settings, () => import('../routes/applications/Settings')),
];

/**
 * The workspace pages that were one application's screen before the application level: their address (with
 * `?app=`, or without it for the first application) now opens that application's tab. `always`: the page has no
 * meaning without an application, so it opens the first one's tab when none is named; otherwise the page stays
 * the workspace-wide view when no application is named (analytics over all applications, all your domains).
 */
export const MOVED: { area: string; tab: string; always: boolean }[] = [
  { area: 'model-configs', tab: 'build', always: true },
  { area: 'prompts', tab: 'build', always: true },
  { area: 'knowledge', tab: 'knowledge', always: true },
  { area: 'tools', tab: 'tools', always: true },
  { area: 'api-keys', tab: 'publish', always: true },
  { area: 'branding', tab: 'publish', always: true },
  { area: 'analytics', tab: 'analytics', always: false },
  { area: 'domains', tab: 'publish', always: false },
];
