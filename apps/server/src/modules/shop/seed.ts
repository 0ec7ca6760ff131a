/**
 * The shop's demo rows (a ModuleSeed, see src/seed.ts): a few categories in a two-level tree, two brands
 * and three products, so that a fresh install's shop screens and the console's category picker are not
 * empty. Only into an empty shop: an operator's categories are never touched.
 */
import { count } from 'drizzle-orm';
import type { Executor } from '../../platform/db.js';
import { mallBrands, mallCategories, mallProducts } from './schema.js';

export async function seedShop(ex: Executor): Promise<void> {
  const [n] = await ex.select({ n: count() }).from(mallCategories);
  if (Number(n?.n ?? 0) > 0) return;
  const [sport, phones] = await ex
    .insert(mallCategories)
    .values([
      { title: 'Sportswear', sort: 20 },
      { title: 'Phones', sort: 10 },
    ])
    .returning({ id: mallCategories.id });
  const [jerseys] = await ex
    .insert(mallCategories)
    .values([
      { title: 'Football jerseys', parentId: sport!.id, sort: 5 },
      { title: 'Accessories', parentId: phones!.id, sort: 1 },
    ])
    .returning({ id: mallCategories.id });
  const [kili, simba] = await ex
    .insert(mallBrands)
    .values([
      { name: 'Kili Sports', sort: 10 },
      { name: 'Simba Mobile', sort: 5 },
    ])
    .returning({ id: mallBrands.id });
  await ex.insert(mallProducts).values([
    {
      title: 'Taifa Stars home jersey', categoryId: jerseys!.id, brandId: kili!.id, model: 'TS-H26', source: 'Own stock', price: 45_000_00, lowestPrice: 39_000_00,
      stock: 120, purchaseCount: 37, ranking: 50, homeRecommend: true, colours: ['yellow', 'blue'],
      properties: [{ name: 'Size', value: 'S, M, L, XL' }, { name: 'Material', value: 'Polyester' }],
    },
    {
      title: 'Training shorts', categoryId: sport!.id, brandId: kili!.id, model: 'KS-TR1', source: 'Own stock', price: 18_000_00, lowestPrice: 15_000_00,
      stock: 300, purchaseCount: 12, ranking: 20, colours: ['black'], properties: [{ name: 'Size', value: 'M, L' }],
    },
    {
      title: 'Smartphone S1', categoryId: phones!.id, brandId: simba!.id, model: 'SM-S1', source: 'Partner shop', price: 320_000_00, lowestPrice: 299_000_00,
      stock: 15, purchaseCount: 4, ranking: 40, homeRecommend: true, colours: ['black', 'silver'], properties: [{ name: 'Storage', value: '64 GB' }],
    },
  ]);
}
