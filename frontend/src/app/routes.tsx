/**
 * The whole route table of spec platform §2;
 * `login` routes need a signed-in user, `TEMPLATE_MANAGER` routes also need that role.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Spin } from 'antd';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { COLLECTION_KINDS } from '@/api/collection';
import { DEFAULT_MATERIAL_CATEGORY } from '@/api/material';
import { HandoffPage } from '@/auth/HandoffPage';
import { LoginPage } from '@/auth/LoginPage';
import { RequireAuth, type Requirement } from '@/auth/RequireAuth';
import { OperatorLevel } from '@/auth/roles';
import { AppLayout } from '@/components/AppLayout';
import { NotFound } from '@/components/NotFound';
import { RouteError } from '@/components/RouteError';
import { AbilityPage } from '@/platform/ai/AbilityPage';
import { AiListPage } from '@/platform/ai/AiListPage';
import { AiTestPage } from '@/platform/ai/AiTestPage';
import { GesturePage } from '@/platform/ai/GesturePage';
import { CompetitionContentPage } from '@/platform/contest/CompetitionContentPage';
import { ContestResultPage } from '@/platform/contest/ContestResultPage';
import { ManageContestPage } from '@/platform/contest/ManageContestPage';
import { EnterprisePage } from '@/platform/enterprise/EnterprisePage';
import { HomePage } from '@/platform/home/HomePage';
import { CheckTemplateDetailPage } from '@/platform/manage/CheckTemplateDetailPage';
import { CollectionCenterPage } from '@/platform/manage/collections/CollectionCenterPage';
import { CollectionDetailPage } from '@/platform/manage/collections/CollectionDetailPage';
import { CheckTemplatePage } from '@/platform/manage/CheckTemplatePage';
import { ManageRingOrdersPage } from '@/platform/manage/ManageRingOrdersPage';
import { ManageIndexPage } from '@/platform/manage/ManageIndexPage';
import { ManageTemplatePage } from '@/platform/manage/ManageTemplatePage';
import { MusicCategoryPage } from '@/platform/manage/MusicCategoryPage';
import { MusicContentPage } from '@/platform/manage/MusicContentPage';
import { ReviewQueuePage } from '@/platform/manage/ReviewQueuePage';
import { AnimationOfferPage } from '@/platform/maintain/AnimationOfferPage';
import { ArtWordOfferPage } from '@/platform/maintain/ArtWordOfferPage';
import { CategoryPage } from '@/platform/maintain/CategoryPage';
import { ConfigPage } from '@/platform/maintain/ConfigPage';
import { FontPage } from '@/platform/maintain/FontPage';
import { MaterialPage } from '@/platform/maintain/MaterialPage';
import { TaskPage } from '@/platform/maintain/TaskPage';
import { UpgradePage } from '@/platform/maintain/UpgradePage';
import { UsersPage } from '@/platform/maintain/UsersPage';
import { MarketSelectPage } from '@/platform/market/MarketSelectPage';
import { MyServicePage } from '@/platform/market/MyServicePage';
import { ServiceDetailPage } from '@/platform/market/ServiceDetailPage';
import { ServiceFormPage } from '@/platform/market/ServiceFormPage';
import { CheckServiceDetailPage } from '@/platform/provider/CheckServiceDetailPage';
import { CheckServicePage } from '@/platform/provider/CheckServicePage';
import { ServiceEmplacementPage } from '@/platform/provider/ServiceEmplacementPage';
import { QsIndexPage } from '@/platform/qs/QsIndexPage';
import { QsIntroducePage } from '@/platform/qs/QsIntroducePage';
import { QsLayout } from '@/platform/qs/QsLayout';
import { QsMakeTemplatePage, QsTemplateArea } from '@/platform/qs/QsTemplateArea';
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
import { OneClickPage } from '@/platform/toolbox/oneClick/OneClickPage';
import { ToolPage } from '@/platform/toolbox/ToolPage';
import { TOOLS, DEFAULT_TOOL } from '@/platform/toolbox/tools';
import { ToolsIndexPage } from '@/platform/toolbox/ToolsIndexPage';
import { ToolsLayout } from '@/platform/toolbox/ToolsLayout';

/** The editor is its own chunk, loaded when `/diy` is first opened. */
const DiyPage = lazy(() => import(/* webpackChunkName: "diy" */ '@/editor/page/DiyPage'));
/** The make-element editor, its own chunk too. */
const MakeElementPage = lazy(() => import(/* webpackChunkName: "element" */ '@/editor/element/MakeElementPage'));

const login = (element: ReactNode, need: Requirement = {}): ReactNode => (
  <RequireAuth role={need.role} level={need.level}>
    {element}
  </RequireAuth>
);
const to = (path: string): ReactNode => <Navigate to={path} replace />;

const manageChildren: RouteObject[] = [
  { index: true, element: <ManageIndexPage /> },
  { path: 'check-template', element: to('pending') },
  { path: 'check-template/:type', element: <CheckTemplatePage /> },
  { path: 'check-template-detail/:taskId', element: <CheckTemplateDetailPage /> },
  { path: 'music-content', element: <MusicContentPage /> },
  { path: 'music-categoty', element: <MusicCategoryPage /> },
  { path: 'manage-template', element: <ManageTemplatePage /> },
  { path: 'ring-orders', element: <ManageRingOrdersPage /> },
  { path: 'check-artfont', element: to('pending') },
  { path: 'check-artfont/:type', element: <ReviewQueuePage queue="artfont" /> },
  { path: 'check-dynamicword', element: to('pending') },
  { path: 'check-dynamicword/:type', element: <ReviewQueuePage queue="dynamicword" /> },
  { path: 'check-chartlet', element: to('pending') },
  { path: 'check-chartlet/:type', element: <ReviewQueuePage queue="chartlet" /> },
  ...COLLECTION_KINDS.flatMap((kind) => [
    { path: `${kind}-center`, element: <CollectionCenterPage key={kind} kind={kind} /> },
    { path: `${kind}/:id`, element: <CollectionDetailPage key={kind} kind={kind} /> },
  ]),
  { path: 'check-service', element: <CheckServicePage /> },
  { path: 'check-service-detail/:id', element: <CheckServiceDetailPage /> },
  { path: 'contest', element: <ManageContestPage /> },
];

const maintainChildren: RouteObject[] = [
  { index: true, element: to('material') },
  { path: 'upgrade', element: login(<UpgradePage />, { level: OperatorLevel.admin }) },
  { path: 'material', element: login(<MaterialPage />, { level: OperatorLevel.admin }) },
  { path: 'task', element: login(<TaskPage />, { level: OperatorLevel.admin }) },
  { path: 'font', element: login(<FontPage />, { level: OperatorLevel.admin }) },
  { path: 'animation', element: login(<AnimationOfferPage />, { level: OperatorLevel.admin }) },
  { path: 'artfont', element: login(<ArtWordOfferPage />, { level: OperatorLevel.admin }) },
  { path: 'config', element: login(<ConfigPage />, { level: OperatorLevel.admin }) },
  { path: 'category', element: login(<CategoryPage />, { level: OperatorLevel.admin }) },
  { path: 'users', element: login(<UsersPage />, { level: OperatorLevel.admin }) },
];

const workbenchChildren: RouteObject[] = [
  { index: true, element: login(<WorkbenchHomePage />) },
  { path: 'my-material', element: to(`${DEFAULT_MATERIAL_CATEGORY}`) },
  { path: 'my-material/:categoryId', element: login(<MyMaterialPage />) },
  { path: 'my-task', element: login(<MyTaskPage />) },
  { path: 'yqx', element: login(<EnterprisePage />) },
];

const qsChildren: RouteObject[] = [
  { index: true, element: to('index') },
  { path: 'index', element: <QsIndexPage /> },
  {
    path: 'service',
    element: <Outlet />,
    children: [
      { index: true, element: to('select') },
      { path: 'select', element: login(<MarketSelectPage />) },
      { path: 'my-service', element: login(<MyServicePage />) },
    ],
  },
  { path: 'service/detail/:id', element: login(<ServiceDetailPage />) },
  { path: 'service/emplacement', element: login(<ServiceEmplacementPage />) },
  { path: 'service/new', element: login(<ServiceFormPage />) },
  {
    path: 'diy',
    element: (
      <Suspense fallback={<Spin style={{ display: 'block', margin: '80px auto' }} />}>
        <DiyPage />
      </Suspense>
    ),
  },
  { path: 'template', element: <TemplateSelectPage /> },
  { path: 'introduce', element: <QsIntroducePage /> },
  {
    path: 'template-page',
    element: <QsTemplateArea />,
    children: [
      { index: true, element: to('select') },
      { path: 'select', element: login(<QsMakeTemplatePage />) },
      { path: 'my-template', element: login(<MyTemplatesPage />) },
    ],
  },
  { path: 'mydiy', element: login(<MyWorksPage createPath="/qs/diy" />) },
  { path: 'my-tools', element: login(<MyToolsPage />) },
  { path: 'contest-result', element: login(<ContestResultPage />) },
  { path: 'competition-content', element: login(<CompetitionContentPage />) },
];

/** Tools whose pages are their own flows, not the tool-run page. */
const OWN_PAGES = new Set(['business-card', 'ai-one-step-video-cut', 'intelligent-generation']);

const toolChildren: RouteObject[] = [
  { index: true, element: to(DEFAULT_TOOL) },
  ...TOOLS.filter((tool) => !OWN_PAGES.has(tool.path)).map((tool) => ({ path: tool.path, element: login(<ToolPage key={tool.path} path={tool.path} />) })),
  // One-click filming: the template chosen by the user, or for them by the clips' length.
  { path: 'ai-one-step-video-cut', element: login(<OneClickPage key="choose" mode="choose" page="aiOneStepVideoCut" />) },
  { path: 'intelligent-generation', element: login(<OneClickPage key="auto" mode="auto" page="intelligentGeneration" />) },
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
  { path: 'test', element: login(<AiTestPage />) },
  { path: 'list', element: <AiListPage /> },
  {
    path: 'ability',
    element: <Outlet />,
    children: [
      { index: true, element: to('/ai/list') },
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
      { path: 'gesture', element: login(<GesturePage />) },
      { path: 'put-image', element: login(<PutImagePage />) },
      { path: 'manage', element: login(<Outlet />, { role: 'TEMPLATE_MANAGER' }), children: manageChildren },
      { path: 'eb-maintain', element: <Outlet />, children: maintainChildren },
      { path: 'workbench', element: <Outlet />, children: workbenchChildren },
      { path: 'yqx', element: login(<EnterprisePage />) },
      { path: 'tools', element: <ToolsLayout />, children: toolChildren },
      { path: 'tools-index', element: login(<ToolsIndexPage />) },
      { path: 'ai', element: <Outlet />, children: aiChildren },
      { path: '*', element: <NotFound /> },
    ],
  },
  // The variant area is a portal with its own frame (header, nav), not the app's.
  { path: '/qs', element: <QsLayout />, errorElement: <RouteError />, children: qsChildren },
];
