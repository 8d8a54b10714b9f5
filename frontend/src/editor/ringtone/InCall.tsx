/**
 * The editor's in-call preview (issue 26): a toggle that lays the incoming-call screen and its safe
 * zones over the stage, the layers that reach into a zone named, and the server's pre-check of the
 * document's size, orientation and duration in the same list, and "make it loop" (`MakeItLoop`).
 * The server owns the rules.
 */
import { Alert, Space, Switch, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { outputSize, useRingPrecheck, useRingProfile } from '@/api/ring';
import { InCallChrome } from '@/components/ring/InCallChrome';
import { ViolationList } from '@/components/ring/ViolationList';
import type { Layer } from '@/editor/model/gen/Layer';
import { selectDuration } from '@/editor/state/selectors';
import { useEditorSelector } from '@/editor/page/useEditor';
import { MakeItLoop } from './MakeItLoop';
import { safeZoneHits, type ZoneHit } from './safeZones';

/** The toggle "来电预览". */
export function InCallToggle({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Space size={4}>
      <Switch size="small" checked={on} onChange={onChange} aria-label={t('ring.editor.toggle')} data-testid="in-call-toggle" />
      <Typography.Text>{t('ring.editor.toggle')}</Typography.Text>
    </Space>
  );
}

/** The incoming-call screen over the stage, drawn at the stage's scale; nothing until the profile is known. */
export function StageInCallOverlay({ scale }: { scale: number }) {
  const profile = useRingProfile();
  const width = useEditorSelector((s) => s.doc.resolutionRatio.width);
  if (!profile.data) return null;
  return <InCallChrome safeTopPercent={profile.data.safeTopPercent} safeBottomPercent={profile.data.safeBottomPercent} scale={(width * scale) / 270} />;
}

/** What a layer is called in the warnings: its text, or its kind. */
function useLayerName(): (layer: Layer) => string {
  const { t } = useTranslation();
  return (layer) => {
    const text = 'content' in layer && typeof layer.content === 'string' ? layer.content.trim() : '';
    const kind = t(`editor.timeline.kind.${layer.type}`, { defaultValue: layer.type });
    return text ? t('ring.editor.namedLayer', { kind, text: text.length > 24 ? `${text.slice(0, 24)}…` : text }) : kind;
  };
}

function HitLine({ hit, scenes }: { hit: ZoneHit; scenes: number }) {
  const { t } = useTranslation();
  const name = useLayerName()(hit.layer);
  const zones = hit.zones.map((z) => t(`ring.editor.zone.${z}`)).join(t('ring.editor.zoneJoin'));
  return (
    <li data-testid={`zone-hit-${String(hit.layer.id)}`}>
      {scenes > 1 ? t('ring.editor.hitInScene', { name, zones, scene: hit.sceneIndex + 1 }) : t('ring.editor.hit', { name, zones })}
    </li>
  );
}

/** The warnings of the in-call preview: layers under a safe zone, and the pre-check's violations; then "make it loop". */
export function InCallWarnings() {
  const { t } = useTranslation();
  const profile = useRingProfile();
  const scenes = useEditorSelector((s) => s.doc.scenes);
  const ratio = useEditorSelector((s) => s.doc.resolutionRatio);
  const seconds = useEditorSelector((s) => Math.round(selectDuration(s) * 10) / 10);
  const { width, height } = outputSize(ratio);
  const precheck = useRingPrecheck({ width, height, seconds });
  const top = profile.data?.safeTopPercent;
  const bottom = profile.data?.safeBottomPercent;
  const hits = useMemo(
    () => (top !== undefined && bottom !== undefined ? safeZoneHits({ scenes, resolutionRatio: ratio }, { top, bottom }) : []),
    [scenes, ratio, top, bottom],
  );
  const report = precheck.data;
  const clean = hits.length === 0 && report?.conforms === true && report.violations.length === 0;
  return (
    <Alert
      type={clean ? 'success' : 'warning'}
      showIcon
      data-testid="in-call-warnings"
      title={clean ? t('ring.editor.clean') : t('ring.editor.title')}
      description={
        <Space orientation="vertical" size={4} style={{ width: '100%' }}>
          {hits.length > 0 ? (
            <div data-testid="zone-hits">
              <Typography.Text>{t('ring.editor.hits', { count: hits.length })}</Typography.Text>
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                {hits.map((hit) => (
                  <HitLine key={`${hit.sceneIndex}-${String(hit.layer.id)}`} hit={hit} scenes={scenes.length} />
                ))}
              </ul>
            </div>
          ) : null}
          {report && !(report.conforms && report.violations.length === 0) ? <ViolationList report={report} testId="precheck-violations" /> : null}
          {precheck.isError ? <Typography.Text type="secondary">{t('ring.editor.precheckFailed')}</Typography.Text> : null}
          <MakeItLoop />
        </Space>
      }
    />
  );
}
