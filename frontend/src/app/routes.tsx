/**
 * The whole route table of spec platform §2. Pages of later issues render `ComingSoon`;
 * `login` routes need a signed-in user, `TEMPLATE_MANAGER` routes also need that role.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Spin } from 'antd';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { DEFAULT_MATERIAL_CATEGORY } from '@/api/material';
import { HandoffPage } from '@/auth/HandoffPage';
import { LoginPage } from '@/auth/LoginPage';
import { RequireAuth, type Requirement } from '@/auth/RequireAuth';
import { OperatorLevel } from '@/auth/roles';
import { AppLayout } from '@/components/AppLayout';
import { ComingSoon } from '@/components/ComingSoon';
import { NotFound } from '@/components/NotFound';
import { RouteError } from '@/components/RouteError';
import { AbilityPage } from '@/platform/ai/AbilityPage';
import { AiListPage } from '@/platform/ai/AiListPage';
import { HomePage } from '@/platform/home/HomePage';
import { CheckTemplateDetailPage } from '@/platform/manage/CheckTemplateDetailPage';
import { CheckTemplatePage } from '@/platform/manage/CheckTemplatePage';
import { ManageRingOrdersPage } from '@/platform/manage/ManageRingOrdersPage';
import { ManageTemplatePage } from '@/platform/manage/ManageTemplatePage';
import { CategoryPage } from '@/platform/maintain/CategoryPage';
import { FontPage } from '@/platform/maintain/FontPage';
import { MaterialPage } from '@/platform/maintain/MaterialPage';
import { UsersPage } from '@/platform/maintain/UsersPage';
import { FromJiancaiPage } from '@/platform/start/FromJiancaiPage';
import { LoadingPage } from '@/platform/start/LoadingPage';
import { NewTaskPage } from '@/platform/start/NewTaskPage';
import { PutImagePage } from '@/platform/start/PutImagePage';
import { UploadPage } from '@/platform/start/UploadPage';
import { MyMaterialPage } from '@/platform/workbench/MyMaterialPage';
import { MyTaskPage } from '@/platform/workbench/MyTaskPage';
import { WorkbenchHomePage } from '@/platform/workbench/WorkbenchHomePage';
import { MyRingPage } from '@/platform/works/MyRingPage';
import { MyWorksPage } from '@/platform/works/MyWorksPage';
import { MyTemplatesPage } from '@/platform/templates/MyTemplatesPage';
import { TemplateSelectPage } from '@/platform/templates/TemplateSelectPage';
import { CardDetailPage } from '@/platform/toolbox/businessCard/CardDetailPage';
import { CardEditPage } from '@/platform/toolbox/businessCard/CardEditPage';
import { CardTemplatePage } from '@/platform/toolbox/businessCard/CardTemplatePage';
import { MyToolsPage } from '@/platform/toolbox/MyToolsPage';
import { ToolPage } from '@/platform/toolbox/ToolPage';
import { TOOLS, DEFAULT_TOOL } from '@/platform/toolbox/tools';
import { ToolsIndexPage } from '@/platform/toolbox/ToolsIndexPage';
import { ToolsLayout } from '@/platform/toolbox/ToolsLayout';

/** The editor is its own chunk, loaded when `/diy` is first opened. */
const DiyPage = lazy(() => import(/* webpackChunkName: "diy" */ '@/editor/page/DiyPage'));
/** The make-element editor, its own chunk too. */
const MakeElementPage = lazy(() => import(/* webpackChunkName: "element" */ '@/editor/element/MakeElementPage'));

const soon = (page: string): ReactNode => <ComingSoon page={page} />;
const login = (element: ReactNode, need: Requirement = {}): ReactNode => (
  <RequireAuth role={need.role} level={need.level}>
    {element}
  </RequireAuth>
);
const to = (path: string): ReactNode => <Navigate to={path} replace />;
const page = (path: string, key: string): RouteObject => ({ path, element: soon(key) });

const manageChildren: RouteObject[] = [
  { index: true, element: soon('manage') },
  { path: 'check-template', element: to('pending') },
  { path: 'check-template/:type', element: <CheckTemplatePage /> },
  { path: 'check-template-detail/:taskId', element: <CheckTemplateDetailPage /> },
  page('music-content', 'musicContent'),
  page('music-categoty', 'musicCategory'),
  { path: 'manage-template', element: <ManageTemplatePage /> },
  { path: 'ring-orders', element: <ManageRingOrdersPage /> },
  page('check-artfont/:type', 'checkArtfont'),
  page('check-dynamicword/:type', 'checkDynamicword'),
  page('check-chartlet/:type', 'checkChartlet'),
  page('topic-center', 'topicCenter'),
  page('topic/:id', 'topic'),
  page('case-center', 'caseCenter'),
  page('case/:id', 'case'),
  page('industry-center', 'industryCenter'),
  page('industry/:id', 'industry'),
  page('check-service', 'checkService'),
  page('check-service-detail/:id', 'checkServiceDetail'),
];

const maintainChildren: RouteObject[] = [
  { index: true, element: to('material') },
  page('upgrade', 'maintainUpgrade'),
  { path: 'material', element: login(<MaterialPage />, { level: OperatorLevel.admin }) },
  page('task', 'maintainTask'),
  { path: 'font', element: login(<FontPage />, { level: OperatorLevel.admin }) },
  page('animation', 'maintainAnimation'),
  page('artfont', 'maintainArtfont'),
  page('config', 'maintainConfig'),
  { path: 'category', element: login(<CategoryPage />, { level: OperatorLevel.admin }) },
  { path: 'users', element: login(<UsersPage />, { level: OperatorLevel.admin }) },
];

const workbenchChildren: RouteObject[] = [
  { index: true, element: login(<WorkbenchHomePage />) },
  { path: 'my-material', element: to(`${DEFAULT_MATERIAL_CATEGORY}`) },
  { path: 'my-material/:categoryId', element: login(<MyMaterialPage />) },
  { path: 'my-task', element: login(<MyTaskPage />) },
  page('yqx', 'yqx'),
];

const qsChildren: RouteObject[] = [
  { index: true, element: to('index') },
  page('index', 'qsIndex'),
  {
    path: 'service',
    element: <Outlet />,
    children: [{ index: true, element: to('select') }, page('select', 'qsServiceSelect'), page('my-service', 'qsMyService')],
  },
  page('service/detail/:id', 'qsServiceDetail'),
  page('service/emplacement', 'qsServiceEmplacement'),
  page('service/new', 'qsServiceNew'),
  page('diy', 'qsDiy'),
  page('template', 'qsTemplate'),
  page('introduce', 'qsIntroduce'),
  {
    path: 'template-page',
    element: <Outlet />,
    children: [{ index: true, element: to('select') }, page('select', 'qsTemplatePageSelect'), page('my-template', 'qsMyTemplate')],
  },
  page('mydiy', 'qsMydiy'),
  { path: 'my-tools', element: login(<MyToolsPage />) },
  page('contest-result', 'qsContestResult'),
  page('competition-content', 'qsCompetitionContent'),
];

const toolChildren: RouteObject[] = [
  { index: true, element: to(DEFAULT_TOOL) },
  ...TOOLS.filter((tool) => tool.path !== 'business-card').map((tool) => ({ path: tool.path, element: login(<ToolPage key={tool.path} path={tool.path} />) })),
  {
    path: 'business-card',
    element: <Outlet />,
    children: [
      { index: true, element: to('template') },
      { path: 'template', element: login(<CardTemplatePage />) },
      { path: 'edit', element: login(<CardEditPage />) },
      { path: 'list', element: login(<MyWorksPage usedFor="BUSINESS_CARD_TEMPLATE" titleKey="page.businessCardList" createPath="/tools/business-card/template" />) },
      { path: 'detail/:id', element: login(<CardDetailPage />) },
    ],
  },
];

const aiChildren: RouteObject[] = [
  { index: true, element: to('list') },
  page('test', 'aiTest'),
  { path: 'list', element: <AiListPage /> },
  {
    path: 'ability',
    element: <Outlet />,
    children: [
      { index: true, element: soon('aiAbility') },
      { path: ':slug', element: <AbilityPage /> },
    ],
  },
];

/** Every route of the app, under the shared layout. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'houmen', element: <HomePage /> },
      {
        path: 'diy',
        element: (
          <Suspense fallback={<Spin style={{ display: 'block', margin: '80px auto' }} />}>
            <DiyPage />
          </Suspense>
        ),
      },
      {
        path: 'make-element',
        element: login(
          <Suspense fallback={<Spin style={{ display: 'block', margin: '80px auto' }} />}>
            <MakeElementPage />
          </Suspense>,
        ),
      },
      {
        path: 'editor-pro',
        element: (
          <Suspense fallback={<Spin style={{ display: 'block', margin: '80px auto' }} />}>
            <DiyPage pro />
          </Suspense>
        ),
      },
      { path: 'template-select', element: <TemplateSelectPage /> },
      { path: 'my-works', element: login(<MyWorksPage />) },
      { path: 'mydiyring', element: login(<MyRingPage />) },
      { path: 'mytemring', element: login(<MyTemplatesPage />) },
      { path: 'channel-temring', element: login(<MyTemplatesPage channel />) },
      { path: 'my-tool', element: login(<MyToolsPage />) },
      { path: 'upload', element: login(<UploadPage />) },
      { path: 'loading', element: login(<LoadingPage />) },
      { path: 'platform-to-video-product', element: <HandoffPage kind="platform" /> },
      { path: 'corp-to-diy', element: <HandoffPage kind="corp" /> },
      { path: 'trading-to-diy', element: <HandoffPage kind="trading" /> },
      { path: 'ivvr-to-diy', element: <HandoffPage kind="ivvr" /> },
      { path: 'new-task', element: login(<NewTaskPage />) },
      { path: 'from-jiancai', element: login(<FromJiancaiPage />) },
      page('gesture', 'gesture'),
      { path: 'put-image', element: login(<PutImagePage />) },
      { path: 'manage', element: login(<Outlet />, { role: 'TEMPLATE_MANAGER' }), children: manageChildren },
      { path: 'eb-maintain', element: <Outlet />, children: maintainChildren },
      { path: 'workbench', element: <Outlet />, children: workbenchChildren },
      page('yqx', 'yqx'),
      { path: 'qs', element: <Outlet />, children: qsChildren },
      { path: 'tools', element: <ToolsLayout />, children: toolChildren },
      { path: 'tools-index', element: login(<ToolsIndexPage />) },
      { path: 'ai', element: <Outlet />, children: aiChildren },
      { path: '*', element: <NotFound /> },
    ],
  },
];
