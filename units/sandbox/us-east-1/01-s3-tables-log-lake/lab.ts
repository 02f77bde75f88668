import { defineLevel } from '../../../lib/define';

// Lab 01: the S3 Tables log lake. The lab id must match the folder's number.
export default defineLevel({
  labId: '01',
  inputs: {
    // IAM role/user ARNs that run the lab's SQL besides whoever deploys it (the deployer always gets access): they
    // get Lake Formation grants in network, ref, enriched and lab, and read access to the daily snapshots.
    labPrincipalArns: [],
  },
});
