/** Word lists for realistic product names: a few very common words, many rarer ones. */
export const BRANDS = [
  'Fizz', 'Meadow', 'Harvest', 'Crunchy', 'Sunny Grove', 'Hop Yard', 'Vina Sol', 'Cocoa & Co', 'Softy', 'Sparkle', 'Golden Leaf', 'Cloud',
  'Brewster', 'Orchard Lane', 'Highland Spring', 'North Bakery', 'Maison', 'Roastery', 'Hedgerow', 'Nutty', 'Chewy', 'Relief', 'Flick',
  'Kiwi Cove', 'Bluebell', 'Riverside', 'Oak & Ash', 'Little Farm', 'Alpine', 'Coastal', 'Urban Pantry', 'Green Valley', 'Red Barn',
  'Silver Birch', 'Polar', 'Tropic', 'Summit', 'Heritage', 'Evergreen', 'Daybreak', 'Moonlight', 'Sunrise', 'Harbour', 'Lakeside',
];
export const PRODUCTS = [
  'Cola', 'Lemonade', 'Orange Juice', 'Apple Juice', 'Sparkling Water', 'Still Water', 'Energy Drink', 'Iced Tea', 'Lager', 'Pale Ale',
  'Cider', 'Red Wine', 'White Wine', 'Crisps', 'Tortilla Chips', 'Salted Peanuts', 'Milk Chocolate', 'Dark Chocolate', 'Fruit Gums',
  'Mints', 'Baked Beans', 'Chopped Tomatoes', 'Sweetcorn', 'Tuna Chunks', 'Pasta Sauce', 'Spaghetti', 'Penne', 'Basmati Rice',
  'White Bread', 'Wholemeal Bread', 'Croissants', 'Bagels', 'Semi-Skimmed Milk', 'Whole Milk', 'Oat Drink', 'Free Range Eggs',
  'Cheddar', 'Mozzarella', 'Greek Yoghurt', 'Butter', 'Bananas', 'Apples', 'Carrots', 'Potatoes', 'Onions', 'Washing Up Liquid',
  'Toilet Roll', 'Kitchen Towel', 'Bin Bags', 'Batteries', 'Light Bulb', 'Paracetamol', 'Toothpaste', 'Shampoo', 'Shower Gel',
  'Rolling Tobacco', 'Cigarette Papers', 'Disposable Vape', 'Vape Liquid', 'Coffee Beans', 'Instant Coffee', 'Tea Bags', 'Cornflakes',
  'Porridge Oats', 'Muesli', 'Strawberry Jam', 'Peanut Butter', 'Honey', 'Ketchup', 'Mayonnaise', 'Olive Oil', 'Sea Salt', 'Sugar',
];
export const VARIANTS = ['', '', '', 'Original', 'Light', 'Zero', 'Extra', 'Organic', 'Classic', 'Family Pack', 'Mini', 'Value', 'Premium'];
export const SIZES = ['330ml', '500ml', '1L', '2L', '4 x 440ml', '75cl', '32g', '150g', '200g', '400g', '415g', '800g', '1kg', '6', '12', null];
export const CATEGORY_TREE: [string, string[]][] = [
  ['Drinks', ['Soft Drinks', 'Water', 'Juice', 'Hot Drinks']],
  ['Alcohol', ['Beer', 'Cider', 'Wine', 'Spirits']],
  ['Food Cupboard', ['Crisps and Snacks', 'Confectionery', 'Tins and Jars', 'Pasta and Rice']],
  ['Fresh', ['Bakery', 'Dairy', 'Fruit', 'Vegetables']],
  ['Breakfast', ['Cereal', 'Spreads', 'Eggs', 'Coffee and Tea']],
  ['Household', ['Cleaning', 'Paper', 'Batteries', 'Laundry']],
  ['Health and Beauty', ['Medicine', 'Dental', 'Hair', 'Body']],
  ['Tobacco and Vape', ['Tobacco', 'Papers', 'Vapes', 'E-liquids']],
];
