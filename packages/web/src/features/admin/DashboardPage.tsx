import '@mantine/charts/styles.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/SimpleGrid.css';
import { useState } from 'react';
import { AreaChart, BarChart } from '@mantine/charts';
import { Alert, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title, useMatches } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dashboardRanges, type Dashboard, type DashboardMetric, type DashboardRange, type Language } from '@portal/contracts';
import { FullPageLoader } from '../../components/FullPageLoader';
import { LabelAbove } from '../../components/LabelAbove';
import { PageHeader } from '../../components/PageHeader';
import { formatDay } from '../../lib/dates';
import { useLanguage } from '../../lib/use-language';
import { useDashboard } from './api';

const charts: ReadonlyArray<{ metric: DashboardMetric; color: string; kind: 'bar' | 'area' }> = [
  { metric: 'sign_ups', color: 'teal.7', kind: 'bar' },
  { metric: 'sign_ins', color: 'blue.7', kind: 'bar' },
  { metric: 'failed_sign_ins', color: 'orange.8', kind: 'bar' },
  { metric: 'lockouts', color: 'red.8', kind: 'bar' },
  { metric: 'active_sessions', color: 'indigo.7', kind: 'area' },
  { metric: 'token_grants', color: 'grape.7', kind: 'bar' },
];

/**
 * A bucket's label on the axis, in UTC as the server counts: its hour (13:00), or its day in
 * the language's date pattern without the year (11/28 in English, 28/11 in Vietnamese).
 */
function bucketLabel(at: string, bucket: Dashboard['bucket'], language: Language): string {
  if (bucket === 'hour') return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' }).format(new Date(at));
  return formatDay(at, language).slice(0, 5);
}

/** /admin: the portal's activity at a glance, one chart per figure, per hour or per day. */
export function DashboardPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const [range, setRange] = useState<DashboardRange>('24h');
  const dashboard = useDashboard(range);
  const numbers = new Intl.NumberFormat(language === 'vi' ? 'vi-VN' : 'en-US');
  // On a phone the two periods stack: side by side their names do not fit in 390 px.
  const orientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', sm: 'horizontal' });

  return (
    <Stack gap="lg" data-testid="admin-dashboard">
      <PageHeader title={t('admin.dashboard.title')} description={t('admin.dashboard.description')} />
      <LabelAbove label={t('admin.dashboard.range')}>
        {(labelId) => (
          <SegmentedControl
            aria-labelledby={labelId}
            value={range}
            onChange={(value) => setRange(value as DashboardRange)}
            data={dashboardRanges.map((value) => ({ value, label: t(`admin.dashboard.ranges.${value}`) }))}
            orientation={orientation}
            w="fit-content"
            maw="100%"
            data-testid="dashboard-range"
          />
        )}
      </LabelAbove>
      {dashboard.isError && !dashboard.data && (
        <Alert color="red" role="alert">
          {t('admin.dashboard.loadFailed')}
        </Alert>
      )}
      {!dashboard.data && !dashboard.isError && <FullPageLoader />}
      {dashboard.data && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          {charts.map(({ metric, color, kind }) => {
            const data = dashboard.data.points.map((point) => ({ label: bucketLabel(point.at, dashboard.data.bucket, language), [metric]: point[metric] }));
            const name = t(`admin.dashboard.metrics.${metric}`);
            const chartProps = {
              h: 180,
              data,
              dataKey: 'label',
              series: [{ name: metric, label: name, color }],
              textColor: 'gray.7',
              tickLine: 'none' as const,
              gridAxis: 'x' as const,
              valueFormatter: (value: number) => numbers.format(value),
              yAxisProps: { allowDecimals: false, width: 40 },
              xAxisProps: { minTickGap: 16 },
              // The chart is one picture (its heading and total say what it shows): no focus stop inside it.
              accessibilityLayer: false,
              withTooltip: false,
            };
            return (
              <Paper key={metric} withBorder p="md" radius="md" component="section" aria-labelledby={`dashboard-${metric}`} data-testid={`dashboard-${metric}`}>
                <Group justify="space-between" align="baseline" mb="sm" wrap="nowrap">
                  <Title order={2} fz="h4" id={`dashboard-${metric}`}>
                    {name}
                  </Title>
                  <Text fw={700} fz="lg" data-testid={`dashboard-${metric}-total`}>
                    {numbers.format(dashboard.data.totals[metric])}{' '}
                    <Text span size="xs" c="dimmed" fw={400}>
                      {t(metric === 'active_sessions' ? 'admin.dashboard.activeNow' : 'admin.dashboard.inRange')}
                    </Text>
                  </Text>
                </Group>
                <div role="img" aria-label={t('admin.dashboard.chartLabel', { metric: name, range: t(`admin.dashboard.ranges.${range}`) })}>
                  {kind === 'bar' ? <BarChart {...chartProps} /> : <AreaChart {...chartProps} curveType="monotone" withDots={false} />}
                </div>
              </Paper>
            );
          })}
        </SimpleGrid>
      )}
    </Stack>
  );
}
