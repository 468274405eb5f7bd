// PLACEHOLDER owned by the elicitation work (issue 3): elicit-* scenarios are registered here.
export const elicitationScenarios = {};
