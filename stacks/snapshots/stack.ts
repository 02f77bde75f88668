// The snapshots unit: a private snapshot bucket, a Glue database with one Terraform-catalogued table per snapshot,
// the two Lambdas (esbuild bundles as assets), the daily state machine (ASL generated and validated from typed
// code), one EventBridge Scheduler schedule per snapshot, and alarms on failed executions and on snapshot
// staleness. Reads the table bucket's outputs through remote state, the lab-wide alerts topic among them (failures
// and alarms publish there).
import type { Construct } from 'constructs';
import type * as athenaWorkgroup from '@cdktf/provider-aws/lib/athena-workgroup';
import type * as cloudwatchLogGroup from '@cdktf/provider-aws/lib/cloudwatch-log-group';
import type * as cloudwatchMetricAlarm from '@cdktf/provider-aws/lib/cloudwatch-metric-alarm';
import type * as glueCatalogDatabase from '@cdktf/provider-aws/lib/glue-catalog-database';
import type * as glueCatalogTable from '@cdktf/provider-aws/lib/glue-catalog-table';
import type * as iamRole from '@cdktf/provider-aws/lib/iam-role';
import type * as iamRolePolicy from '@cdktf/provider-aws/lib/iam-role-policy';
import type * as lambdaFunction from '@cdktf/provider-aws/lib/lambda-function';
import type * as schedulerSchedule from '@cdktf/provider-aws/lib/scheduler-schedule';
import type * as sfnStateMachine from '@cdktf/provider-aws/lib/sfn-state-machine';
// Metric names come through ./env: ./metrics would load Powertools, runtime-only code.
import {
  DIMENSION_SNAPSHOT,
  handlerEnvironment,
  METRIC,
  METRICS_NAMESPACE,
  METRICS_SERVICE,
  EXAMPLE_ARNS,
  snapshotStateMachine,
  snapshotTableShape,
  QUERY_RESULTS_PREFIX,
  snapshotWorkGroupShape,
} from '@loglake/snapshot-lambdas/deploy';
import type { ResolvedUnit } from '../lib/contract';
import { addDependsOn } from '../lib/destroy-hooks';
import { StacksError } from '../lib/errors';
import { assumeRolePolicy, policyJson } from '../lib/iam';
import { LabStack, type LabStackOptions } from '../lib/lab-stack';
import { namespaceGrants } from '../lib/namespace-grants';
import { PrivateBucket } from '../lib/private-bucket';
import { checkStateMachine } from './asl-check';
import { lambdaTimeoutSeconds, SNAPSHOTS_OUTPUTS, type SnapshotsInputs } from './inputs';
import { handlerAsset } from './lambda-assets';
import {
  buildSnapshotPolicy,
  labRoleSnapshotsPolicy,
  resolveWatermarkPolicy,
  schedulerPolicy,
  stateMachinePolicy,
} from './policies';
import { awsLib } from '../lib/provider-aws';

const { AthenaWorkgroup } = awsLib<typeof athenaWorkgroup>('athena-workgroup');
const { CloudwatchLogGroup } = awsLib<typeof cloudwatchLogGroup>('cloudwatch-log-group');
const { CloudwatchMetricAlarm } = awsLib<typeof cloudwatchMetricAlarm>('cloudwatch-metric-alarm');
const { GlueCatalogDatabase } = awsLib<typeof glueCatalogDatabase>('glue-catalog-database');
const { GlueCatalogTable } = awsLib<typeof glueCatalogTable>('glue-catalog-table');
const { IamRole } = awsLib<typeof iamRole>('iam-role');
const { IamRolePolicy } = awsLib<typeof iamRolePolicy>('iam-role-policy');
const { LambdaFunction } = awsLib<typeof lambdaFunction>('lambda-function');
const { SchedulerSchedule } = awsLib<typeof schedulerSchedule>('scheduler-schedule');
const { SfnStateMachine } = awsLib<typeof sfnStateMachine>('sfn-state-machine');

/** A day of daily reports plus two hours of slack for a late run (a period of an hour allows up to 7 days). */
export const STALE_WINDOW_HOURS = 26;

export class SnapshotsStack extends LabStack<SnapshotsInputs> {
  static readonly outputs = SNAPSHOTS_OUTPUTS;
  readonly stateMachine: sfnStateMachine.SfnStateMachine;
  readonly tables: glueCatalogTable.GlueCatalogTable[] = [];

  constructor(scope: Construct, unit: ResolvedUnit<SnapshotsInputs>, options: LabStackOptions = {}) {
    super(scope, unit, options);
    const i = unit.inputs;
    const tb = this.upstream('table_bucket');
    const tableBucket = tb.get('table_bucket_name');
    const account = this.callerIdentity.accountId;
    const arn = (service: string, resource: string) => this.arn(service, resource);

    // Runs are pruned by the pipeline (runs to keep); the expiry is a safety net, long enough for the staleness
    // alarm to be acted on, short enough that a pipeline dead for weeks does not serve a months-old snapshot.
    const bucket = new PrivateBucket(this, 'snapshot-bucket', {
      bucket: `${i.bucketNamePrefix}-${account}`,
      expireAfterDays: i.objectExpiryDays,
    }).bucket;

    // The Lambdas' own workgroup (see workgroup-shape.ts): the lab workgroup enforces its settings, and Athena fails a
    // CTAS with external_location there.
    const wgShape = snapshotWorkGroupShape(
      i.workgroup.name,
      bucket.bucket,
      i.workgroup.bytesScannedCutoffPerQuery,
    );
    const workgroupResource = new AthenaWorkgroup(this, 'workgroup', {
      name: wgShape.name,
      description: wgShape.description,
      forceDestroy: true,
      configuration: {
        enforceWorkgroupConfiguration: wgShape.enforceWorkGroupConfiguration,
        bytesScannedCutoffPerQuery: wgShape.bytesScannedCutoffPerQuery,
        publishCloudwatchMetricsEnabled: true,
        engineVersion: { selectedEngineVersion: wgShape.engineVersion },
        resultConfiguration: { outputLocation: wgShape.outputLocation },
      },
    });
    const workgroup = workgroupResource.name;

    const database = new GlueCatalogDatabase(this, 'database', {
      name: i.databaseName,
      description: 'Daily snapshots of the lab tables: the latest complete day, as Parquet',
    });
    for (const def of i.snapshots) {
      const shape = snapshotTableShape(def, bucket.bucket);
      this.tables.push(
        new GlueCatalogTable(this, `table-${def.name}`, {
          name: def.name,
          databaseName: database.name,
          description: shape.description,
          tableType: shape.tableType,
          parameters: { ...shape.parameters },
          storageDescriptor: {
            location: shape.location,
            inputFormat: shape.inputFormat,
            outputFormat: shape.outputFormat,
            serDeInfo: { serializationLibrary: shape.serializationLibrary },
            columns: shape.columns.map((c) => ({ name: c.name, type: c.type })),
          },
          // The pipeline publishes each run by moving the location and recording its watermark in the parameters
          // (one UpdateTable). Terraform owns the table's shape, not which run it points at: without this every
          // plan would "fix" the table back to the empty initial location and un-publish the snapshot.
          lifecycle: { ignoreChanges: ['storage_descriptor[0].location', 'parameters'] },
        }),
      );
    }

    const sources = [
      ...new Map(i.snapshots.map((d) => [`${d.source.namespace}.${d.source.table}`, d.source])).values(),
    ];
    const policyContext = {
      arn,
      workgroup,
      tableBucket,
      sources,
      database: i.databaseName,
      snapshotTables: i.snapshots.map((d) => d.name),
      bucketArn: bucket.arn,
      resultsPrefix: QUERY_RESULTS_PREFIX,
    };
    const env = {
      ...handlerEnvironment({
        sourceTableBucket: tableBucket,
        snapshotDatabase: i.databaseName,
        snapshotBucket: bucket.bucket,
        workgroup,
        queryTimeoutMs: i.queryTimeoutSeconds * 1000,
        definitions: [...i.snapshots],
      }),
      POWERTOOLS_SERVICE_NAME: METRICS_SERVICE,
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
    };

    // Each timeout from the query bound: an invocation always has room for its queries at their worst.
    const timeouts = {
      resolveWatermark: lambdaTimeoutSeconds('resolveWatermark', i.queryTimeoutSeconds),
      buildSnapshot: lambdaTimeoutSeconds('buildSnapshot', i.queryTimeoutSeconds),
    };
    const lambdas = (['resolveWatermark', 'buildSnapshot'] as const).map((handler) => {
      const suffix = handler === 'resolveWatermark' ? 'snapshot-resolve-watermark' : 'snapshot-build';
      const fnName = this.name(suffix);
      const logGroup = new CloudwatchLogGroup(this, `${suffix}-logs`, {
        name: `/aws/lambda/${fnName}`,
        retentionInDays: i.lambda.logRetentionDays,
      });
      const role = new IamRole(this, `${suffix}-role`, {
        name: this.name(suffix),
        assumeRolePolicy: assumeRolePolicy('lambda.amazonaws.com'),
      });
      const statements = (handler === 'resolveWatermark' ? resolveWatermarkPolicy : buildSnapshotPolicy)({
        ...policyContext,
        logGroupArn: logGroup.arn,
      });
      const rolePolicy = new IamRolePolicy(this, `${suffix}-policy`, {
        name: this.name(suffix),
        role: role.id,
        policy: policyJson(...statements),
      });
      // Athena reads the S3 Tables source through Lake Formation: this role needs SELECT on each source table.
      const grants = sources.flatMap((s, n) =>
        namespaceGrants(
          this,
          { database: `${suffix}-lf-db-${n}`, tables: `${suffix}-lf-table-${n}` },
          {
            principal: role.arn,
            account,
            tableCatalogId: `${account}:s3tablescatalog/${tableBucket}`,
            namespace: s.namespace,
            databasePermissions: ['DESCRIBE'],
            tablePermissions: ['SELECT', 'DESCRIBE'],
            table: s.table,
          },
        ),
      );
      // The snapshot database is in the default Glue catalog. Once Lake Formation governs the account's catalog
      // (new databases no longer granted to IAM_ALLOWED_PRINCIPALS), Glue and Athena calls need Lake Formation grants
      // as well as IAM: the CTAS step creates, moves and drops its tables; the pre-processor reads the published one.
      const snapshotGrants = namespaceGrants(
        this,
        { database: `${suffix}-lf-snapshot-db`, tables: `${suffix}-lf-snapshot-tables` },
        {
          principal: role.arn,
          account,
          tableCatalogId: account,
          namespace: database.name,
          ...(handler === 'buildSnapshot'
            ? {
                databasePermissions: ['DESCRIBE', 'CREATE_TABLE', 'ALTER', 'DROP'],
                tablePermissions: ['ALL'],
              }
            : { databasePermissions: ['DESCRIBE'], tablePermissions: ['SELECT', 'DESCRIBE'] }),
          dependsOn: [...this.tables],
        },
      );
      const asset = handlerAsset(this, `${suffix}-asset`, handler);
      const fn = new LambdaFunction(this, suffix, {
        functionName: fnName,
        role: role.arn,
        runtime: 'nodejs22.x',
        architectures: ['arm64'],
        handler: 'index.handler',
        filename: asset.path,
        sourceCodeHash: asset.assetHash,
        timeout: timeouts[handler],
        memorySize: i.lambda.memoryMb,
        environment: { variables: env },
        loggingConfig: { logFormat: 'Text', logGroup: logGroup.name },
        dependsOn: [logGroup, rolePolicy, ...grants, ...snapshotGrants],
      });
      addDependsOn(role, this.upstreamGuards);
      addDependsOn(rolePolicy, this.upstreamGuards);
      for (const g of grants) addDependsOn(g, this.upstreamGuards);
      addDependsOn(fn, this.upstreamGuards);
      return { fn, role };
    });
    const [resolveFn, buildFn] = lambdas.map((l) => l.fn) as [
      lambdaFunction.LambdaFunction,
      lambdaFunction.LambdaFunction,
    ];
    const [resolveRole, buildRole] = lambdas.map((l) => l.role) as [iamRole.IamRole, iamRole.IamRole];

    // Who reads the snapshots the way analysts do: the lab role (the lab's snapshot experiment asks its question as
    // it, on the snapshot and on the source) and the unit's lab principals.
    const readers = this.labPrincipals(tb.get('lab_role_arn'), i.labPrincipalArns);
    // Through IAM, the lab role also needs the snapshot database's Glue entries, the snapshot files, and the snapshot
    // workgroup the comparison runs in (its results go to the snapshot bucket, written with the caller's rights).
    const labReader = new IamRolePolicy(this, 'lab-role-snapshots-policy', {
      name: this.name('lab-snapshots'),
      role: tb.get('lab_role_name'),
      policy: policyJson(...labRoleSnapshotsPolicy(policyContext)),
    });
    addDependsOn(labReader, this.upstreamGuards);
    for (const reader of readers) {
      namespaceGrants(
        this,
        { database: `lf-${reader.id}-snapshot-db`, tables: `lf-${reader.id}-snapshot-tables` },
        {
          principal: reader.arn,
          account,
          tableCatalogId: account,
          namespace: database.name,
          databasePermissions: ['DESCRIBE'],
          tablePermissions: ['SELECT', 'DESCRIBE'],
          dependsOn: [...this.tables],
        },
      );
    }

    // The lab-wide alerts topic (table-bucket unit): failures and staleness mail the lab's alert address.
    const topicArn = tb.get('alerts_topic_arn');

    // The shape is validated with placeholder ARNs (the real ones are Terraform references until apply); the full
    // ASL validator runs once per distinct definition (./asl-check), the structural rules on every synth.
    const props = {
      resolveTimeoutSeconds: timeouts.resolveWatermark + 30,
      buildTimeoutSeconds: timeouts.buildSnapshot + 30,
    };
    try {
      checkStateMachine(snapshotStateMachine({ ...EXAMPLE_ARNS, ...props }));
    } catch (error) {
      throw new StacksError(
        `unit ${unit.name}: the snapshot state machine is invalid: ${(error as Error).message}`,
        { value: error },
      );
    }
    const sfnRole = new IamRole(this, 'state-machine-role', {
      name: this.name('snapshot-state-machine'),
      assumeRolePolicy: assumeRolePolicy('states.amazonaws.com', [], account),
    });
    const sfnPolicy = new IamRolePolicy(this, 'state-machine-policy', {
      name: this.name('snapshot-state-machine'),
      role: sfnRole.id,
      policy: policyJson(...stateMachinePolicy([resolveFn.arn, buildFn.arn], topicArn)),
    });
    this.stateMachine = new SfnStateMachine(this, 'state-machine', {
      name: this.name('snapshots'),
      roleArn: sfnRole.arn,
      definition: JSON.stringify(
        snapshotStateMachine({
          resolveWatermarkFunctionArn: resolveFn.arn,
          buildSnapshotFunctionArn: buildFn.arn,
          alertTopicArn: topicArn,
          partition: this.partition,
          ...props,
        }),
      ),
      dependsOn: [sfnPolicy],
    });
    // They use the alerts topic from table-bucket's state: they wait for the dependency guard.
    addDependsOn(sfnPolicy, this.upstreamGuards);
    addDependsOn(this.stateMachine, this.upstreamGuards);

    const schedulerRole = new IamRole(this, 'scheduler-role', {
      name: this.name('snapshot-scheduler'),
      assumeRolePolicy: assumeRolePolicy('scheduler.amazonaws.com', [], account),
    });
    const schedulerRolePolicy = new IamRolePolicy(this, 'scheduler-policy', {
      name: this.name('snapshot-scheduler'),
      role: schedulerRole.id,
      policy: policyJson(...schedulerPolicy(this.stateMachine.arn)),
    });
    for (const def of i.snapshots) {
      new SchedulerSchedule(this, `schedule-${def.name}`, {
        name: this.name(`snapshot-${def.name.replaceAll('_', '-')}`).slice(0, 64),
        description: `Daily snapshot of ${def.source.namespace}.${def.source.table}`,
        scheduleExpression: `cron(${i.schedule.minute} ${i.schedule.hour} * * ? *)`,
        scheduleExpressionTimezone: i.schedule.timezone,
        flexibleTimeWindow: { mode: 'OFF' },
        target: {
          arn: this.stateMachine.arn,
          roleArn: schedulerRole.arn,
          input: JSON.stringify({ snapshot: def.name }),
          retryPolicy: { maximumRetryAttempts: 2, maximumEventAgeInSeconds: 3600 },
        },
        dependsOn: [schedulerRolePolicy],
      });
    }

    // One alert per failed run: a failed step already mails the named step and its evidence through NotifyFailure
    // (the state machine's catch), so an alarm on ExecutionsFailed would say it a second time. A timed-out execution
    // skips the catch, so that one gets an alarm.
    const timedOut = new CloudwatchMetricAlarm(this, 'alarm-ExecutionsTimedOut', {
      alarmName: this.name('snapshots-executions-timedout'),
      alarmDescription:
        'A daily snapshot execution timed out (no NotifyFailure mail was sent for it); see the execution history',
      namespace: 'AWS/States',
      metricName: 'ExecutionsTimedOut',
      dimensions: { StateMachineArn: this.stateMachine.arn },
      statistic: 'Sum',
      period: 3600,
      evaluationPeriods: 1,
      threshold: 1,
      comparisonOperator: 'GreaterThanOrEqualToThreshold',
      treatMissingData: 'notBreaching',
      alarmActions: [topicArn],
    });
    addDependsOn(timedOut, this.upstreamGuards);
    for (const def of i.snapshots) {
      // Each run reports the published watermark's lag once a day. The alarm looks back over the last
      // STALE_WINDOW_HOURS one-hour periods: ALARM when a run reported the snapshot staler than staleAfterHours;
      // no report at all in that window (the pipeline stopped) is INSUFFICIENT_DATA, which mails too. Missing
      // hours are just missing: with "breaching" the alarm sat in ALARM from deploy until the first 06:00 run.
      // Only after the first report can silence be noticed (before it the alarm starts, and stays, in
      // INSUFFICIENT_DATA without a transition to act on).
      const stale = new CloudwatchMetricAlarm(this, `alarm-stale-${def.name}`, {
        alarmName: this.name(`snapshot-stale-${def.name.replaceAll('_', '-')}`),
        alarmDescription: `${def.name}: a run reported the published watermark more than ${i.staleAfterHours} h behind (ALARM), or no run reported it for ${STALE_WINDOW_HOURS} h (INSUFFICIENT_DATA)`,
        namespace: METRICS_NAMESPACE,
        metricName: METRIC.watermarkLag,
        dimensions: { service: METRICS_SERVICE, [DIMENSION_SNAPSHOT]: def.name },
        statistic: 'Maximum',
        period: 3600,
        evaluationPeriods: STALE_WINDOW_HOURS,
        datapointsToAlarm: 1,
        threshold: i.staleAfterHours * 3600,
        comparisonOperator: 'GreaterThanThreshold',
        treatMissingData: 'missing',
        alarmActions: [topicArn],
        insufficientDataActions: [topicArn],
      });
      addDependsOn(stale, this.upstreamGuards);
    }

    const outputs: Record<(typeof SNAPSHOTS_OUTPUTS)[number], string> = {
      snapshot_bucket_name: bucket.bucket,
      snapshot_database: database.name,
      state_machine_arn: this.stateMachine.arn,
      alert_topic_arn: topicArn,
      resolve_watermark_function: resolveFn.functionName,
      build_snapshot_function: buildFn.functionName,
      resolve_watermark_role_arn: resolveRole.arn,
      build_snapshot_role_arn: buildRole.arn,
      snapshot_workgroup: workgroup,
    };
    this.addOutputs(outputs);
  }
}

export const create = (scope: Construct, unit: ResolvedUnit, options?: LabStackOptions): LabStack =>
  new SnapshotsStack(scope, unit as ResolvedUnit<SnapshotsInputs>, options);
