// Lab-wide settings (like Terragrunt's root.hcl). Every unit inherits these; later levels may override.
import { defineRoot } from './lib/define';

export default defineRoot({
  labId: '01',
  prefix: 'loglake',
  // Provider region; each lab's region folder must agree (units/<env>/<region>/<NN-lab>/).
  region: 'us-east-1',
  // Applied as the AWS provider's default_tags; resolution adds `lab` and `unit` to every unit.
  tags: { project: 'loglake', 'managed-by': 'cdktf' },
  // Optional guard rail: list the sandbox account(s) to make Terraform refuse any other account.
  allowedAccountIds: [],
  // State: S3 backend with use_lockfile, key `<unit path>/terraform.tfstate`. The bucket comes from here or from
  // LAB_STATE_BUCKET; with neither, state stays local under .lab/tfstate (git-ignored) so synth works offline.
  remoteState: {},
  localStateDir: '.lab/tfstate',
});
