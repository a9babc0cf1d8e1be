import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Nullable } from '../../platform/http/schemas.js';
import { withErrors } from '../../platform/http/responses.js';
import { callerOf } from '../access/index.js';
import { CreateProjectBody, ProjectListQuery, ProjectParams, UpdateProjectBody } from './schemas.js';
import type { ProjectService } from './service.js';

const tags = ['Projects'];
const read = { scope: 'projects:read' } as const;
const write = { scope: 'projects:write' } as const;
const NOT_FOUND = { 404: ['project_not_found'] };
/** Default dictionaries a caller names must be its own and few enough. */
const PRONUNCIATION_ERRORS = { 400: ['too_many_dictionaries'], 404: ['pronunciation_not_found'] };

const ProjectListSchema = Type.Object({
  projects: Type.Array(Type.Ref('ProjectSummary')),
  next_cursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last' })),
});

export const projectRoutes: FastifyPluginAsyncTypebox<{ projects: ProjectService }> = async (app, { projects }) => {
  app.get('/api/projects', {
    config: read,
    schema: {
      operationId: 'listProjects',
      tags,
      summary: 'The caller’s projects, most recently changed first',
      querystring: ProjectListQuery,
      response: withErrors({ 200: ProjectListSchema }, { 400: ['invalid_cursor'] }),
    },
    handler: async (request) => {
      const page = projects.list(callerOf(request).keyId, request.query);
      return {
        projects: page.rows.map((project) => ({
          project_id: project.id,
          name: project.name,
          speakers: project.script.speakers.map((speaker) => speaker.name),
          lines: project.script.lines.length,
          tasks: project.taskCount,
          created_at: project.createdAt,
          updated_at: project.updatedAt,
        })),
        next_cursor: page.nextCursor,
      };
    },
  });

  app.post('/api/projects', {
    config: write,
    schema: {
      operationId: 'createProject',
      tags,
      summary: 'Create a project: a name and, optionally, its script of speakers and lines',
      body: CreateProjectBody,
      response: withErrors({ 201: Type.Ref('Project') }, PRONUNCIATION_ERRORS, { 400: ['invalid_script'] }),
    },
    handler: async (request, reply) => {
      const { name, script, pronunciation_ids: pronunciationIds } = request.body;
      const project = projects.create(name, script, callerOf(request).keyId, pronunciationIds);
      return reply.code(201).send(projects.view(project));
    },
  });

  app.get('/api/projects/:project_id', {
    config: read,
    schema: {
      operationId: 'getProject',
      tags,
      summary: 'A project with its script and the tasks filed in it',
      params: ProjectParams,
      response: withErrors({ 200: Type.Ref('Project') }, NOT_FOUND),
    },
    handler: async (request) => projects.view(projects.owned(request.params.project_id, callerOf(request).keyId)),
  });

  app.put('/api/projects/:project_id', {
    config: write,
    schema: {
      operationId: 'updateProject',
      tags,
      summary: 'Rename a project or save its script',
      params: ProjectParams,
      body: UpdateProjectBody,
      response: withErrors({ 200: Type.Ref('Project') }, NOT_FOUND, PRONUNCIATION_ERRORS, { 400: ['invalid_script'], 409: ['project_changed'] }),
    },
    handler: async (request) => {
      const keyId = callerOf(request).keyId;
      const project = projects.owned(request.params.project_id, keyId);
      const { name, script, pronunciation_ids: pronunciationIds, updated_at: updatedAt } = request.body;
      return projects.view(projects.update(project, { name, script, pronunciationIds, updatedAt }, keyId));
    },
  });

  app.delete('/api/projects/:project_id', {
    config: write,
    schema: {
      operationId: 'deleteProject',
      tags,
      summary: 'Delete a project with every task, timeline and render filed in it, and their files',
      params: ProjectParams,
      response: withErrors({ 204: Type.Null() }, NOT_FOUND),
    },
    handler: async (request, reply) => {
      await projects.delete(projects.owned(request.params.project_id, callerOf(request).keyId));
      return reply.code(204).send(null);
    },
  });
};
