// The simulator's seeded generator is the domain's (the feed's simulated matches use it too).
export { Rng } from '@dau/domain';
