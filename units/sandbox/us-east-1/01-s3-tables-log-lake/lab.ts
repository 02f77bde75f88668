import { defineLevel } from '../../../lib/define';

// Lab 01: the S3 Tables log lake. The lab id must match the folder's number.
export default defineLevel({ labId: '01' });
