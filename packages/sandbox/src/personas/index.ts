import type { Persona } from '../types';
import { bareMcp } from './bare-mcp';
import { broken } from './broken';
import { contentSite } from './content-site';
import { exemplary } from './exemplary';
import { garbage } from './garbage';
import { hostile } from './hostile';
import { mcpApp } from './mcp-app';
import { oauthMcp } from './oauth-mcp';
import { signInWall } from './sign-in-wall';
import { slow } from './slow';
import { typicalSaas } from './typical-saas';

export const PERSONAS: readonly Persona[] = [exemplary, typicalSaas, contentSite, hostile, signInWall, bareMcp, mcpApp, oauthMcp, slow, broken, garbage];

export { bareMcp, broken, contentSite, exemplary, garbage, hostile, mcpApp, oauthMcp, signInWall, slow, typicalSaas };
