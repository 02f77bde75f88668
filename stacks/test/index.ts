// @loglake/stacks/testing: the Terraform toolchain the validate and lifecycle tests in units/ run, and the AWS
// provider version the stacks pin.
export { AWS_PROVIDER_VERSION, type TerraformJson } from '../lib/provider-version';
export {
  findToolchain,
  type StackValidation,
  type TerraformToolchain,
  validateStack,
} from './terraform-validate';
