export const IMAGE_PLANS = ['free', 'starter', 'pro', 'business'] as const;

export type ImagePlan = (typeof IMAGE_PLANS)[number];

export function isImagePlan(value: string): value is ImagePlan {
  return (IMAGE_PLANS as readonly string[]).includes(value);
}

/** Every paid plan is premium; only Free is not (image-service contract, section 2.3). */
export function isPremiumPlan(plan: ImagePlan): boolean {
  return plan !== 'free';
}
