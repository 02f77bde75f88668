export * from './inventory';
export * from './records';
export * from './generator';
export * from './bad-records';
export { SeededRandom } from './random';
export * from './errors';
